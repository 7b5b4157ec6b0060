import type { Metric } from "@/lib/metrics/registry";
import type { ResultKind } from "@/lib/responses";

/** The answer as a competitor sees it: kind and the released value in the metric's units. */
export function presentAnswer(metric: Metric, kind: ResultKind, answer: number | null) {
  return { kind, score: answer === null ? null : metric.toDisplay(answer) };
}
