import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { ScrollFrame } from "./scroll-frame";

const LOOK = [
  "space-y-3 leading-relaxed",
  "[&_a]:text-indigo-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1",
  "[&_h1]:text-xl [&_h1]:font-semibold [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold",
  "[&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc",
  "[&_table]:min-w-full [&_table]:text-sm [&_td]:border-t [&_td]:border-slate-200 [&_td]:py-1.5 [&_td]:pr-4 [&_th]:py-1.5 [&_th]:pr-4 [&_th]:text-left [&_th]:font-semibold",
].join(" ");

/**
 * Organizer-written Markdown with GitHub's tables, task lists and strikethrough (remark-gfm),
 * rendered without raw HTML (react-markdown's safe default). A table wider than the screen scrolls
 * in its own frame.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className={LOOK}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          table: ({ children: rows }) => (
            <ScrollFrame className="overflow-x-auto" label="Table">
              <table>{rows}</table>
            </ScrollFrame>
          ),
        }}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
