/** A column of a table: its heading, and whether it holds numbers (right-aligned). */
export type Column = { label: string; numeric?: boolean };

/**
 * A table's header row: one `<th scope="col">` per column, with the table's cell padding (`cell`)
 * and the head's own colours (`className`). Every table of the app states its columns this way.
 */
export function ColumnHeads({ columns, cell, className }: { columns: Column[]; cell: string; className: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((c) => (
          <th key={c.label} scope="col" className={`${cell} font-medium${c.numeric ? " text-right" : ""}`}>
            {c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
