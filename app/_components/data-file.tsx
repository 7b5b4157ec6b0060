import type { AttachmentPreview, AttachmentSummary } from "@/lib/responses";
import { formatBytes } from "@/lib/format";
import { CopyBlock } from "./copy-block";
import { CELL, DataTable } from "./data-table";
import { LINK } from "./tones";

type Summary = Extract<NonNullable<AttachmentPreview["preview"]>, { kind: "csv" }>["summaries"][number];

const TYPE: Record<Summary["type"], string> = { integer: "integer", number: "number", boolean: "true/false", date: "date", text: "text", empty: "empty" };

/** A column's distinct values and range in words: "12", "more than 1,000"; "0.25 to 749.75", "2024-01-01 to 2024-12-31". */
function distinct(c: Summary): string {
  return c.distinctExact ? c.distinct.toLocaleString("en") : `more than ${c.distinct.toLocaleString("en")}`;
}
function range(c: Summary): string {
  if (c.min !== null && c.max !== null) return `${c.min.toLocaleString("en", { maximumFractionDigits: 6 })} to ${c.max.toLocaleString("en", { maximumFractionDigits: 6 })}`;
  if (c.earliest !== null && c.latest !== null) return `${c.earliest} to ${c.latest}`;
  return "—";
}

/**
 * One data file on the Data tab: its name (a download link for those who may download it, at
 * `href`), its size and SHA-256 (to copy, wrapping on a phone), and for those who may download it
 * the preview its upload computed (lib/csv/profile.ts): the first rows and a summary per column, or
 * why there is none. `preview` is undefined when the viewer may not see it.
 */
export function DataFile({ file, href, preview }: { file: AttachmentSummary; href?: string; preview?: AttachmentPreview["preview"] }) {
  const heading = `file-${file.id}`;
  return (
    <article aria-labelledby={heading} className="space-y-3 border-t border-slate-200 pt-4" data-testid="data-file">
      <h3 id={heading} className="break-all font-semibold">
        {href ? (
          <a href={href} className={LINK} download>
            {file.filename}
          </a>
        ) : (
          file.filename
        )}
      </h3>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-600">Size</dt>
        <dd data-testid="data-file-size">
          {formatBytes(file.size)}
          {file.size >= 1024 && <span className="text-slate-600"> ({file.size.toLocaleString("en")} bytes)</span>}
        </dd>
        <dt className="text-slate-600">SHA-256</dt>
        <dd className="min-w-0">
          <CopyBlock label={`the SHA-256 of ${file.filename}`} lines={[file.sha256]} wrap testId="data-file-sha256" />
        </dd>
      </dl>
      {preview === undefined ? null : preview === null ? (
        <p className="text-sm text-slate-600">No preview (uploaded before previews existed).</p>
      ) : preview.kind === "none" ? (
        <p className="text-sm text-slate-600">No preview: {preview.reason}.</p>
      ) : (
        <CsvPreview filename={file.filename} preview={preview} />
      )}
    </article>
  );
}

function CsvPreview({ filename, preview }: { filename: string; preview: Extract<NonNullable<AttachmentPreview["preview"]>, { kind: "csv" }> }) {
  const rows = preview.rows.toLocaleString("en");
  const more = preview.columns - preview.header.length;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {rows} row{preview.rows === 1 ? "" : "s"} and {preview.columns.toLocaleString("en")} column{preview.columns === 1 ? "" : "s"}
        {more > 0 ? ` (the first ${preview.header.length} shown)` : ""}
        {preview.ragged > 0 ? `; ${preview.ragged.toLocaleString("en")} row${preview.ragged === 1 ? " has" : "s have"} another number of fields than the header` : ""}.
      </p>
      {preview.rows > 0 && (
        <DataTable
          caption={`The first ${preview.preview.length} rows of ${filename}`}
          showCaption
          columns={preview.header.map((name, i) => ({ label: name || `(column ${i + 1})` }))}
          testId="data-preview"
        >
          {preview.preview.map((row, r) => (
            <tr key={r}>
              {preview.header.map((_, i) => (
                <td key={i} className={`${CELL.list} max-w-xs truncate whitespace-nowrap font-mono text-xs`} title={row[i]}>
                  {row[i] ?? ""}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      )}
      <DataTable
        caption={`The columns of ${filename}, over all ${rows} rows`}
        showCaption
        columns={[{ label: "Column" }, { label: "Type" }, { label: "Missing", numeric: true }, { label: "Distinct", numeric: true }, { label: "Range" }]}
        testId="data-summary"
      >
        {preview.summaries.map((c, i) => (
          <tr key={i}>
            <th scope="row" className={`${CELL.list} break-all font-mono text-xs font-normal`}>
              {c.name || `(column ${i + 1})`}
            </th>
            <td className={CELL.list}>{TYPE[c.type]}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{c.missing.toLocaleString("en")}</td>
            <td className={`${CELL.list} whitespace-nowrap text-right tabular-nums`}>{distinct(c)}</td>
            <td className={`${CELL.list} whitespace-nowrap tabular-nums`}>{range(c)}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
