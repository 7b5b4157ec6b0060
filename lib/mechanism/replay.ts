import { createStreams } from "./rng";
import { initThresholdout, stepThresholdout, type ThresholdoutParams } from "./thresholdout";

/**
 * Replays a competition's answers from its secret (docs/mechanism.md §5, §2.10): the organizers'
 * audit, and anyone's verification once the close is revealed, run this. For each team's stream,
 * query by query, Algorithm 1 is stepped again on the stored public and holdout values with the
 * budget the team had and the queries it had absorbed from merged teams (the query's position minus
 * its index), and the kind, the released value and the budget after must be exactly the stored ones;
 * query indices must run 1, 2, 3, … with none reused or skipped. "capped" is the ⊥ a team with budget
 * left gets once the competition's cap is reached: replayed with the budget it had then (0), it is
 * "exhausted".
 */
export type ReplayedQuery = {
  /** an id to name the query in a report (a submission's id) */
  id: string;
  /** the team whose streams drew its noise (a merged team keeps the absorbed team's) */
  streamTeamId: string;
  queryIndex: number;
  position: number;
  kind: string;
  answer: number | null;
  budgetBefore: number;
  budgetAfter: number;
  publicValue: number;
  holdoutValue: number;
};

export type ReplayReport = { queries: number; mismatches: number; examples: { submissionId: string; problem: string }[] };

/** A running replay: queries are given in order of stream, then index (a competition's may be read in pages). */
export function createReplay(params: ThresholdoutParams, secret: Uint8Array, maxExamples = 10) {
  const report: ReplayReport = { queries: 0, mismatches: 0, examples: [] };
  const mismatch = (submissionId: string, problem: string) => {
    report.mismatches++;
    if (report.examples.length < maxExamples) report.examples.push({ submissionId, problem });
  };
  let stream: { team: string; threshold: number; next: number; streams: ReturnType<typeof createStreams> } | null = null;
  return {
    report,
    add(q: ReplayedQuery): void {
      if (!stream || stream.team !== q.streamTeamId) {
        const streams = createStreams(secret, q.streamTeamId);
        stream = { team: q.streamTeamId, streams, threshold: initThresholdout(params, streams).noisyThreshold, next: 1 };
      }
      report.queries++;
      if (q.queryIndex !== stream.next) mismatch(q.id, `query index ${q.queryIndex}, expected ${stream.next}`);
      stream.next = q.queryIndex + 1;
      const step = stepThresholdout(
        params,
        { budget: q.budgetBefore, noisyThreshold: stream.threshold, queries: q.queryIndex - 1, absorbed: q.position - q.queryIndex },
        { holdoutValue: q.holdoutValue, publicValue: q.publicValue },
        stream.streams,
      );
      stream.threshold = step.state.noisyThreshold;
      const sameKind = q.kind === step.answer.kind || (q.kind === "capped" && step.answer.kind === "exhausted");
      if (!sameKind || step.answer.value !== q.answer || step.state.budget !== q.budgetAfter) {
        mismatch(q.id, `stored ${q.kind} ${q.answer} (budget ${q.budgetAfter}), replay gives ${step.answer.kind} ${step.answer.value} (budget ${step.state.budget})`);
      }
    },
  };
}
