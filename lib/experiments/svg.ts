/** A standalone SVG line plot (for experiment reports written to disk). */
export type Series = { label: string; color: string; points: { x: number; y: number | null }[]; dashed?: boolean };

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** Round tick values (steps of 1, 2 or 5 times a power of ten) covering [lo, hi], about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((x) => x >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** A title in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    if (lines.length && (lines[lines.length - 1] + " " + word).length <= width) lines[lines.length - 1] += " " + word;
    else lines.push(word);
  }
  return lines;
}

export function linePlotSvg(options: { title: string; xLabel: string; yLabel: string; series: Series[]; yRange?: [number, number] }): string {
  const W = 800;
  const H = 440;
  const title = wrap(options.title, 95);
  const pad = { left: 64, right: 250, top: 24 + 18 * title.length, bottom: 52 };
  const xs = options.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = options.series.flatMap((s) => s.points.map((p) => p.y)).filter((y): y is number => y !== null);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = options.yRange ?? [Math.min(...ys), Math.max(...ys)];
  const sx = (x: number) => pad.left + ((x - x0) / (x1 - x0 || 1)) * (W - pad.left - pad.right);
  const sy = (y: number) => H - pad.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - pad.top - pad.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    ...title.map((line, i) => `<text x="${pad.left}" y="${22 + 18 * i}" font-size="14" font-weight="bold">${esc(line)}</text>`),
  ];
  for (const y of niceTicks(y0, y1)) {
    parts.push(`<line x1="${pad.left}" x2="${W - pad.right}" y1="${sy(y)}" y2="${sy(y)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${pad.left - 8}" y="${sy(y) + 4}" text-anchor="end" fill="#555">${y}</text>`);
  }
  for (const x of niceTicks(x0, x1)) parts.push(`<text x="${sx(x)}" y="${H - pad.bottom + 18}" text-anchor="middle" fill="#555">${x}</text>`);
  parts.push(`<text x="${(pad.left + W - pad.right) / 2}" y="${H - 12}" text-anchor="middle">${esc(options.xLabel)}</text>`);
  parts.push(`<text x="16" y="${(pad.top + H - pad.bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(pad.top + H - pad.bottom) / 2})">${esc(options.yLabel)}</text>`);
  options.series.forEach((s, i) => {
    const pts = s.points.filter((p) => p.y !== null) as { x: number; y: number }[];
    const d = pts.map((p, k) => `${k ? "L" : "M"}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ");
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    for (const p of pts) parts.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3" fill="${s.color}"/>`);
    const ly = pad.top + 10 + i * 22;
    parts.push(
      `<line x1="${W - pad.right + 16}" x2="${W - pad.right + 40}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`,
    );
    parts.push(`<text x="${W - pad.right + 46}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}
