import type { TeamHistory } from "@/lib/responses";
/**
 * Small dependency-free SVG charts. Each is an image with a text alternative listing its values,
 * so a screen reader gets the numbers a sighted user reads off the plot.
 */
type Point = { x: number; y: number };

const W = 360;
const H = 200;
const PAD = { left: 48, right: 12, top: 12, bottom: 36 };

function ticks(min: number, max: number, count = 4): number[] {
  if (max === min) return [min];
  return Array.from({ length: count + 1 }, (_, i) => min + ((max - min) * i) / count);
}

function fmt(v: number): string {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1000) return v.toExponential(1);
  if (a >= 10) return v.toFixed(0);
  if (a >= 0.01) return Number(v.toPrecision(2)).toString();
  return v.toExponential(1);
}

type Line = { label: string; color: string; points: { x: number; y: number | null }[] };

export function LineChart({
  title,
  points,
  series,
  xLabel,
  yLabel,
  marker,
  yRange,
}: {
  title: string;
  points?: Point[];
  series?: Line[];
  xLabel: string;
  yLabel: string;
  marker?: number;
  yRange?: [number, number];
}) {
  const lines: Line[] = series ?? [{ label: yLabel, color: "#4f46e5", points: points ?? [] }];
  const all = lines.flatMap((l) => l.points).filter((p): p is Point => p.y !== null);
  if (all.length === 0) return <p className="text-sm text-slate-500">{title}: nothing to plot yet.</p>;
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const top = Math.max(...ys);
  const [y0, y1] = yRange ?? [Math.min(0, ...ys), top > 0 ? top : 1];
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => H - PAD.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  const alt = `${title}. ${lines.map((l) => `${lines.length > 1 ? `${l.label}: ` : ""}${l.points.map((p) => `${xLabel} ${fmt(p.x)}: ${p.y === null ? "none" : fmt(p.y)}`).join("; ")}`).join(". ")}.`;
  return (
    <figure className="space-y-1">
      <figcaption className="text-sm font-medium text-slate-700">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={alt} className="w-full max-w-md">
        {ticks(y0, y1).map((t) => (
          <g key={`y${t}`}>
            <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" fontSize="10" fill="#64748b">
              {fmt(t)}
            </text>
          </g>
        ))}
        {ticks(x0, x1).map((t) => (
          <text key={`x${t}`} x={sx(t)} y={H - PAD.bottom + 14} textAnchor="middle" fontSize="10" fill="#64748b">
            {fmt(t)}
          </text>
        ))}
        <text x={(W + PAD.left) / 2} y={H - 4} textAnchor="middle" fontSize="11" fill="#334155">
          {xLabel}
        </text>
        <text x={12} y={(H - PAD.bottom) / 2} textAnchor="middle" fontSize="11" fill="#334155" transform={`rotate(-90 12 ${(H - PAD.bottom) / 2})`}>
          {yLabel}
        </text>
        {marker !== undefined && marker >= x0 && marker <= x1 && <line x1={sx(marker)} x2={sx(marker)} y1={PAD.top} y2={H - PAD.bottom} stroke="#f59e0b" strokeDasharray="4 3" />}
        {lines.map((l) => {
          const pts = l.points.filter((p): p is Point => p.y !== null);
          return (
            <g key={l.label}>
              <path d={pts.map((p, i) => `${i ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ")} fill="none" stroke={l.color} strokeWidth="2" />
              {pts.map((p) => (
                <circle key={p.x} cx={sx(p.x)} cy={sy(p.y)} r="2.5" fill={l.color} />
              ))}
            </g>
          );
        })}
      </svg>
      {lines.length > 1 && (
        <ul className="flex flex-wrap gap-4 text-xs text-slate-600">
          {lines.map((l) => (
            <li key={l.label}>
              <span className="mr-1 inline-block h-0.5 w-4 align-middle" style={{ background: l.color }} />
              {l.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** Horizontal bars; `text` is what is printed beside each bar (defaults to the value). */
export function BarChart({ title, bars, unit }: { title: string; bars: { label: string; value: number; text?: string }[]; unit: string }) {
  const max = Math.max(...bars.map((b) => b.value)) || 1;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium text-slate-700">{title}</figcaption>
      <ul className="space-y-2" role="list">
        {bars.map((b) => (
          <li key={b.label} className="grid grid-cols-[9rem_1fr_auto] items-center gap-2 text-sm">
            <span className="text-slate-600">{b.label}</span>
            <span className="h-4 rounded bg-slate-100" aria-hidden="true">
              <span className="block h-4 rounded bg-indigo-500" style={{ width: `${(100 * b.value) / max}%` }} />
            </span>
            <span className="text-right font-mono tabular-nums">
              {b.text ?? b.value} <span className="sr-only">{unit}</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

type HistoryPoint = TeamHistory["history"][number];

/**
 * A team's history: answers over time (public answers as circles, holdout answers as amber
 * diamonds) above its budget as a step line.
 */
export function HistoryChart({ points, initialBudget, precision }: { points: HistoryPoint[]; initialBudget: number; precision: number }) {
  if (points.length === 0) return <p className="text-sm text-slate-500">No submissions yet.</p>;
  const scored = points.filter((p) => p.score !== null);
  const times = points.map((p) => new Date(p.at).getTime());
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const ys = scored.map((p) => p.score!);
  const [y0, y1] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  const pad = (y1 - y0) * 0.1 || 0.01;
  const top = 150;
  const sx = (t: number) => PAD.left + ((t - t0) / (t1 - t0 || 1)) * (W - PAD.left - PAD.right);
  const sy = (y: number) => top - 10 - ((y - (y0 - pad)) / (y1 - y0 + 2 * pad)) * (top - 20);
  const by = (b: number) => top + 80 - (b / Math.max(1, initialBudget)) * 40;
  let steps = `M${sx(times[0])},${by(initialBudget)}`;
  points.forEach((p, i) => (steps += ` L${sx(times[i])},${by(i === 0 ? initialBudget : points[i - 1].budget)} L${sx(times[i])},${by(p.budget)}`));
  steps += ` L${W - PAD.right},${by(points[points.length - 1].budget)}`;
  const alt = points.map((p, i) => `#${i + 1} ${p.kind}${p.score === null ? "" : ` ${p.score.toFixed(precision)}`}, budget ${p.budget}`).join("; ");
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${W} ${top + 90}`} role="img" aria-label={`Score history: ${alt}`} className="w-full max-w-2xl">
        {ticks(y0 - pad, y1 + pad, 3).map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} stroke="#e2e8f0" />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" fontSize="10" fill="#64748b">
              {t.toFixed(Math.min(precision, 3))}
            </text>
          </g>
        ))}
        {points.map((p, i) =>
          p.score === null ? null : p.kind === "holdout" ? (
            <rect key={i} x={sx(times[i]) - 4} y={sy(p.score) - 4} width="8" height="8" transform={`rotate(45 ${sx(times[i])} ${sy(p.score)})`} fill="#f59e0b" />
          ) : (
            <circle key={i} cx={sx(times[i])} cy={sy(p.score)} r="4" fill="#4f46e5" />
          ),
        )}
        <line x1={PAD.left} x2={W - PAD.right} y1={top + 25} y2={top + 25} stroke="#cbd5e1" strokeDasharray="2 3" />
        <text x={PAD.left} y={top + 36} fontSize="9" fill="#64748b">
          budget left
        </text>
        <text x={PAD.left - 6} y={by(initialBudget) + 4} textAnchor="end" fontSize="10" fill="#64748b">
          {initialBudget}
        </text>
        <text x={PAD.left - 6} y={by(0) + 4} textAnchor="end" fontSize="10" fill="#64748b">
          0
        </text>
        <path d={steps} fill="none" stroke="#10b981" strokeWidth="2" />
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-slate-600">
        <span>
          <span className="mr-1 inline-block h-2 w-2 rounded-full bg-indigo-600" /> public answer
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 rotate-45 bg-amber-500" /> holdout answer (spent budget)
        </span>
        <span>
          <span className="mr-1 inline-block h-0.5 w-4 bg-emerald-500 align-middle" /> budget left
        </span>
      </figcaption>
    </figure>
  );
}
