import type { Metric } from "@/lib/metrics/registry";
import type { Answer, ResultKind } from "@/lib/responses";

/** The answer as its team sees it: kind, the released value and the exact public score, in the metric's units. */
export function presentAnswer(metric: Metric, kind: ResultKind, answer: number | null, publicValue: number): Answer {
  return { kind, score: answer === null ? null : metric.toDisplay(answer), publicScore: metric.toDisplay(publicValue) };
}
