import type { ReactNode } from "react";
import { ScrollFrame } from "./scroll-frame";

/**
 * A column of a table: its heading; whether it holds numbers (right-aligned); whether the heading is
 * for screen readers only (a column of buttons); from which screen width it shows (narrow screens
 * hide it, in the body cells too: use `hiddenBelow`).
 */
export type Column = { label: string; numeric?: boolean; srOnly?: boolean; from?: "sm" | "md" };

/** The row of the viewer's own team (with YourTeam after its name). */
export const MINE = "bg-indigo-50";

/** The mark after the viewer's own team's name. */
export function YourTeam() {
  return <span className="mt-0.5 block w-fit whitespace-nowrap rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-800 sm:ml-2 sm:mt-0 sm:inline">your team</span>;
}

/** The body cells' padding of each look, for the rows a table is given. */
export const CELL = { board: "px-2 py-2 sm:px-3", list: "py-1.5 pr-3" } as const;

// Whole class names, so that Tailwind finds them.
const FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell" } as const;

/** The class that hides a body cell below its column's `from` width. */
export function hiddenBelow(from: Column["from"]): string {
  return from ? FROM[from] : "";
}

const LOOK = {
  board: { frame: "overflow-x-auto rounded-xl border border-slate-200 bg-white", head: "bg-slate-50 text-slate-600", size: "text-sm" },
  list: { frame: "overflow-x-auto", head: "text-slate-500", size: "text-sm" },
} as const;

/**
 * Every table of the app but the transition matrix (whose columns are the chain's states): a
 * caption (for screen readers unless `showCaption`), one `<th scope="col">` per column and the rows.
 * "board" is the framed table of the leaderboards; "list" a table inside a card. `maxHeight` makes
 * the body scroll under a sticky head. The frame scrolls sideways when the table is wider than the
 * screen, and then says so and takes the keyboard's focus (ScrollFrame).
 */
export function DataTable({
  caption,
  columns,
  look = "list",
  showCaption = false,
  maxHeight,
  testId,
  children,
}: {
  caption: string;
  columns: Column[];
  look?: keyof typeof LOOK;
  showCaption?: boolean;
  maxHeight?: string;
  testId?: string;
  children: ReactNode;
}) {
  const { frame, head, size } = LOOK[look];
  const cell = CELL[look];
  return (
    <ScrollFrame className={`${frame} ${maxHeight ?? ""}`} label={caption}>
      <table className={`w-full text-left ${size}`} data-testid={testId}>
        <caption className={showCaption ? "mb-1 text-left font-medium" : "sr-only"}>{caption}</caption>
        <thead className={`${head}${maxHeight ? " sticky top-0 bg-white" : ""}`}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`${cell} font-medium${c.numeric ? " text-right" : ""}${c.from ? ` ${FROM[c.from]}` : ""}`}>
                {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </ScrollFrame>
  );
}
