"use client";

import { scaleLinear } from "d3-scale";
import { useEffect, useRef, useState } from "react";
import type { TeamHistory } from "@/lib/responses";

/**
 * Small SVG charts. Each is drawn at the width it is given on the page (so its labels stay 12 px
 * at any screen width) on scales and ticks from d3-scale, and is an image with a text alternative
 * listing its values, so a screen reader gets the numbers a sighted user reads off the plot.
 */
type Point = { x: number; y: number };

const FONT = 12;
const AXIS = "#475569"; // slate-600: 7.6:1 on white
const GRID = "#e2e8f0";

/** The width of the element `ref` is put on, followed as it changes; `fallback` before it is measured (and on the server). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current!;
    const measure = () => setWidth(Math.max(240, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
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

const PAD = { left: 56, right: 16, top: 12, bottom: 44 };

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
  const [ref, W] = useWidth(360);
  const lines: Line[] = series ?? [{ label: yLabel, color: "#4f46e5", points: points ?? [] }];
  const all = lines.flatMap((l) => l.points).filter((p): p is Point => p.y !== null);
  if (all.length === 0) return <p className="text-sm text-slate-600">{title}: nothing to plot yet.</p>;
  const H = 220;
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const top = Math.max(...ys);
  const x = scaleLinear()
    .domain([Math.min(...xs), Math.max(...xs)])
    .range([PAD.left, W - PAD.right]);
  const y = scaleLinear()
    .domain(yRange ?? [Math.min(0, ...ys), top > 0 ? top : 1])
    .nice()
    .range([H - PAD.bottom, PAD.top]);
  const [xTicks, yTicks] = [x.ticks(Math.max(2, Math.floor(W / 90))), y.ticks(5)];
  const [xFormat, yFormat] = [x.tickFormat(Math.max(2, Math.floor(W / 90))), y.tickFormat(5)];
  const [x0, x1] = x.domain();
  const alt = `${title}. ${lines.map((l) => `${lines.length > 1 ? `${l.label}: ` : ""}${l.points.map((p) => `${xLabel} ${fmt(p.x)}: ${p.y === null ? "none" : fmt(p.y)}`).join("; ")}`).join(". ")}.`;
  return (
    <figure className="space-y-1">
      <figcaption className="text-sm font-medium text-slate-700">{title}</figcaption>
      <div ref={ref}>
        <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={alt} className="block max-w-full">
          {yTicks.map((t) => (
            <g key={`y${t}`}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke={GRID} />
              <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={FONT} fill={AXIS}>
                {yFormat(t)}
              </text>
            </g>
          ))}
          {xTicks.map((t) => (
            <text key={`x${t}`} x={x(t)} y={H - PAD.bottom + 16} textAnchor="middle" fontSize={FONT} fill={AXIS}>
              {xFormat(t)}
            </text>
          ))}
          <text x={(W + PAD.left) / 2} y={H - 6} textAnchor="middle" fontSize={FONT} fill={AXIS}>
            {xLabel}
          </text>
          <text x={14} y={(H - PAD.bottom) / 2} textAnchor="middle" fontSize={FONT} fill={AXIS} transform={`rotate(-90 14 ${(H - PAD.bottom) / 2})`}>
            {yLabel}
          </text>
          {marker !== undefined && marker >= x0 && marker <= x1 && <line x1={x(marker)} x2={x(marker)} y1={PAD.top} y2={H - PAD.bottom} stroke="#d97706" strokeDasharray="4 3" />}
          {lines.map((l) => {
            const pts = l.points.filter((p): p is Point => p.y !== null);
            return (
              <g key={l.label}>
                <path d={pts.map((p, i) => `${i ? "L" : "M"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ")} fill="none" stroke={l.color} strokeWidth="2" />
                {pts.map((p) => (
                  <circle key={p.x} cx={x(p.x)} cy={y(p.y)} r="2.5" fill={l.color} />
                ))}
              </g>
            );
          })}
        </svg>
      </div>
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
 * A team's history, one submission after another (their order, not their time: a team may submit
 * several files within minutes): public answers as circles and holdout answers as amber diamonds,
 * with the leaderboard's score as a dashed line on the same scale, above the budget as a step line.
 */
export function HistoryChart({ points, initialBudget, precision, boardScore }: { points: HistoryPoint[]; initialBudget: number; precision: number; boardScore: number | null }) {
  const [ref, W] = useWidth(640);
  if (points.length === 0) return <p className="text-sm text-slate-600">No submissions yet.</p>;
  const n = points.length;
  const scores = points.flatMap((p) => (p.score === null ? [] : [p.score]));
  const extent = [...scores, ...(boardScore === null ? [] : [boardScore])];
  const [lo, hi] = extent.length ? [Math.min(...extent), Math.max(...extent)] : [0, 1];
  const pad = (hi - lo) * 0.1 || Math.max(Math.abs(hi) * 0.01, 10 ** -precision);
  const SCORES = { top: 12, bottom: 200 };
  const BUDGET = { top: 276, bottom: 322 };
  const H = 334;
  const x = scaleLinear()
    .domain([0.5, n + 0.5])
    .range([PAD.left, W - PAD.right]);
  const y = scaleLinear()
    .domain([lo - pad, hi + pad])
    .nice()
    .range([SCORES.bottom, SCORES.top]);
  const b = scaleLinear()
    .domain([0, Math.max(1, initialBudget)])
    .range([BUDGET.bottom, BUDGET.top]);
  const xTicks = x.ticks(Math.min(n, Math.max(2, Math.floor(W / 70)))).filter((t) => Number.isInteger(t) && t >= 1 && t <= n);
  let steps = `M${x(0.5)},${b(initialBudget)}`;
  points.forEach((p, i) => (steps += ` L${x(i + 1)},${b(i === 0 ? initialBudget : points[i - 1].budget)} L${x(i + 1)},${b(p.budget)}`));
  steps += ` L${x(n + 0.5)},${b(points[n - 1].budget)}`;
  const alt = points.map((p, i) => `#${i + 1} ${p.kind}${p.score === null ? "" : ` ${p.score.toFixed(precision)}`}, budget ${p.budget}`).join("; ");
  const board = boardScore === null ? "" : `; leaderboard score ${boardScore.toFixed(precision)}`;
  return (
    <figure className="space-y-2">
      <div ref={ref}>
        <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Score history: ${alt}${board}`} className="block max-w-full">
          {y.ticks(4).map((t) => (
            <g key={t}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke={GRID} />
              <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={FONT} fill={AXIS}>
                {y.tickFormat(4)(t)}
              </text>
            </g>
          ))}
          {boardScore !== null && (
            <g>
              <line x1={PAD.left} x2={W - PAD.right} y1={y(boardScore)} y2={y(boardScore)} stroke="#4338ca" strokeDasharray="6 4" />
              <text x={W - PAD.right} y={y(boardScore) - 5} textAnchor="end" fontSize={FONT} fill="#4338ca">
                leaderboard {boardScore.toFixed(precision)}
              </text>
            </g>
          )}
          {points.map((p, i) =>
            p.score === null ? null : p.kind === "holdout" ? (
              <rect key={i} x={x(i + 1) - 4.5} y={y(p.score) - 4.5} width="9" height="9" transform={`rotate(45 ${x(i + 1)} ${y(p.score)})`} fill="#d97706" />
            ) : (
              <circle key={i} cx={x(i + 1)} cy={y(p.score)} r="4.5" fill="#4f46e5" />
            ),
          )}
          {xTicks.map((t) => (
            <text key={t} x={x(t)} y={SCORES.bottom + 18} textAnchor="middle" fontSize={FONT} fill={AXIS}>
              {t}
            </text>
          ))}
          <text x={(W + PAD.left) / 2} y={SCORES.bottom + 36} textAnchor="middle" fontSize={FONT} fill={AXIS}>
            submission
          </text>
          <text x={PAD.left} y={BUDGET.top - 12} fontSize={FONT} fill={AXIS}>
            budget left
          </text>
          <text x={PAD.left - 6} y={b(initialBudget) + 4} textAnchor="end" fontSize={FONT} fill={AXIS}>
            {initialBudget}
          </text>
          <text x={PAD.left - 6} y={b(0) + 4} textAnchor="end" fontSize={FONT} fill={AXIS}>
            0
          </text>
          <line x1={PAD.left} x2={W - PAD.right} y1={b(0)} y2={b(0)} stroke={GRID} />
          <path d={steps} fill="none" stroke="#059669" strokeWidth="2" />
        </svg>
      </div>
      <figcaption className="flex flex-wrap gap-4 text-xs text-slate-600">
        <span>
          <span className="mr-1 inline-block h-2 w-2 rounded-full bg-indigo-600" /> public answer
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 rotate-45 bg-amber-600" /> holdout answer (spent budget)
        </span>
        {boardScore !== null && (
          <span>
            <span className="mr-1 inline-block w-4 border-t-2 border-dashed border-indigo-700 align-middle" /> leaderboard score
          </span>
        )}
        <span>
          <span className="mr-1 inline-block h-0.5 w-4 bg-emerald-600 align-middle" /> budget left
        </span>
      </figcaption>
    </figure>
  );
}
