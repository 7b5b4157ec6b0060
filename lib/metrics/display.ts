// How a score is shown, on every surface: the web pages, the `quiltboard` command, the Python client
// and the CSV exports (docs/clients.md, "How scores are shown"). The JSON answers keep each value
// and carry the decimals it is shown to (`decimals`), so that no client decides them on its own.

/** The most decimals a score is shown to (a bound below 10⁻⁶ supports no more). */
export const MAX_DECIMALS = 6;

/**
 * The decimals a score with this 95 % bound (its ±) supports (docs/mechanism.md §2.6): the bound to
 * one significant digit (two when it starts with a 1) and the score to the same place, between 1 and
 * MAX_DECIMALS; a score without a bound (an exact one: a late submission's, a baseline's, a
 * competition without a proof) at the competition's display precision.
 */
export function scoreDecimals(bound: number | null, precision: number): number {
  if (bound === null || !(bound > 0) || !Number.isFinite(bound)) return precision;
  const exponent = Math.floor(Math.log10(bound));
  return Math.min(MAX_DECIMALS, Math.max(1, -exponent + (bound / 10 ** exponent < 2 ? 1 : 0)));
}

/** A score to `decimals`, with its bound when it has one: "0.723 ± 0.010" ("—" for none). */
export function scoreText(score: number | null, bound: number | null, decimals: number): string {
  if (score === null) return "—";
  return bound === null ? score.toFixed(decimals) : `${score.toFixed(decimals)} ± ${bound.toFixed(decimals)}`;
}
