const STYLE = {
  published: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  upcoming: "bg-indigo-50 text-indigo-800 ring-indigo-600/20",
  draft: "bg-amber-50 text-amber-800 ring-amber-600/20",
  closed: "bg-slate-100 text-slate-600 ring-slate-500/20",
} as const;
const LABEL = { published: "Live", upcoming: "Upcoming", draft: "Draft", closed: "Closed" } as const;

/** A competition's status; "upcoming" is a published competition that opens later. */
export function StatusBadge({ status }: { status: keyof typeof STYLE }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[status]}`}>{LABEL[status]}</span>;
}
