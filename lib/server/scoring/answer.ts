import { scoreDecimals } from "@/lib/metrics/display";
import type { Metric } from "@/lib/metrics/registry";
import type { Answer, ResultKind } from "@/lib/responses";

/** What the mechanism released for one submission, in the metric's internal values. */
export type Released = { kind: ResultKind; answer: number | null; publicValue: number; bound?: number | null };

/**
 * The answer as its team sees it: kind, the released value, the exact public score, in the metric's
 * units, and the released value's bound (docs/mechanism.md §2.8; null when no score was released, or
 * for a late answer, which the live competition's guarantee does not cover), and the decimals all of
 * its numbers are shown to: those the bound supports, else the competition's display `precision`.
 */
export function presentAnswer(metric: Metric, precision: number, released: Released): Answer {
  const { kind, answer, publicValue, bound = null } = released;
  const shownBound = answer === null ? null : bound;
  return {
    kind,
    score: answer === null ? null : metric.toDisplay(answer),
    publicScore: metric.toDisplay(publicValue),
    bound: shownBound,
    decimals: scoreDecimals(shownBound, precision),
  };
}
