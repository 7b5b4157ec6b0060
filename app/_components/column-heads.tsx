/**
 * A column of a table: its heading; whether it holds numbers (right-aligned); whether the heading is
 * for screen readers only (a column of buttons); from which screen width it shows (narrow screens
 * hide it, in the body cells too).
 */
export type Column = { label: string; numeric?: boolean; srOnly?: boolean; from?: "sm" | "md" };

// Whole class names, so that Tailwind finds them.
const FROM = { sm: "hidden sm:table-cell", md: "hidden md:table-cell" } as const;

/**
 * A table's header row: one `<th scope="col">` per column, with the table's cell padding (`cell`)
 * and the head's own colours (`className`). Every table of the app states its columns this way (the
 * transition matrix aside: its columns are the chain's states).
 */
export function ColumnHeads({ columns, cell, className }: { columns: Column[]; cell: string; className: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((c) => (
          <th key={c.label} scope="col" className={`${cell} font-medium${c.numeric ? " text-right" : ""}${c.from ? ` ${FROM[c.from]}` : ""}`}>
            {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
