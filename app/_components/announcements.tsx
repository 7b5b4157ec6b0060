import { LocalTime } from "./local-time";
import { Markdown } from "./markdown";
import type { AnnouncementView } from "@/lib/responses";

const FROM: Record<AnnouncementView["kind"], string> = { post: "", settings: "Settings changed", reminder: "Reminder", closed: "Closed" };

/** A competition's announcements, newest first, each with its date and who posted it (the organizers' Markdown rendered as descriptions are). */
export function Announcements({ announcements }: { announcements: AnnouncementView[] }) {
  return (
    <ol className="space-y-4" data-testid="announcements">
      {announcements.map((a) => (
        <li key={a.id} className="space-y-1 border-l-2 border-indigo-200 pl-3">
          <h3 className="font-semibold">{a.title}</h3>
          <p className="text-xs text-slate-600">
            <LocalTime at={a.createdAt} /> · {a.by ?? FROM[a.kind]}
          </p>
          <Markdown>{a.body}</Markdown>
        </li>
      ))}
    </ol>
  );
}
