import seedrandom from "seedrandom";
import { createStreams } from "../mechanism/rng";
import { answerDecimalsFor, initThresholdout, stepThresholdout, type ThresholdoutParams, type ThresholdoutState } from "../mechanism/thresholdout";
import { boostingAttack, type LeaderboardOracle } from "./boosting";
import { signAccuracy, randomLabels } from "./data";

/** Largest synthetic holdout the preview simulates; larger holdouts are scaled down to it. */
export const PREVIEW_MAX_ROWS = 20_000;

export type AttackPreview = {
  /** the holdout size simulated (the real one, capped at PREVIEW_MAX_ROWS) */
  rows: number;
  /** reported accuracy of the attacker's majority vote after s submissions (truth: 0.5) */
  plain: { x: number; y: number | null }[];
  protected: { x: number; y: number | null }[];
  /** holdout answers the full attack cost the protected leaderboard */
  budgetSpent: number;
};

/**
 * The boosting attack (boosting.ts) against a draft configuration, before anyone can try it:
 * synthetic ±1 labels with the holdout's size and correlation (a sticky chain whose lag-one
 * correlation λ gives the organizer's n_eff, λ = (n/n_eff − 1)/(n/n_eff + 1)), and a public split
 * of the same size. Run against the exact holdout score and against Algorithm 1 with the draft's
 * σ, T and B (fresh random noise). Each checkpoint is a separate attacker with that many
 * submissions against a fresh mechanism state.
 */
export async function previewBoostingAttack(options: {
  holdoutRows: number;
  publicRows: number;
  nEff: number;
  sigma: number;
  threshold: number;
  budget: number;
  submissions: number;
  /** seeds the synthetic labels and the attacker's probes */
  seed: string;
  /** a fresh mechanism secret for each simulated attacker */
  newSecret: () => Uint8Array;
}): Promise<AttackPreview> {
  const { submissions } = options;
  const scale = Math.min(1, PREVIEW_MAX_ROWS / options.holdoutRows);
  const holdoutRows = Math.max(10, Math.round(options.holdoutRows * scale));
  const publicRows = Math.max(10, Math.round(options.publicRows * scale));
  const rows = publicRows + holdoutRows;
  const ratio = options.holdoutRows / Math.max(1, options.nEff);
  const lambda = (ratio - 1) / (ratio + 1);
  const labels = randomLabels(rows, seedrandom(`${options.seed}:labels`), lambda > 1e-9 ? (1 + lambda) / 2 : undefined);
  const publicIdx = Uint32Array.from({ length: publicRows }, (_, i) => i);
  const holdoutIdx = Uint32Array.from({ length: holdoutRows }, (_, i) => publicRows + i);
  // The preview's attacker may submit as often as it likes (m = its submissions), answers as the competition releases them.
  const params: ThresholdoutParams = {
    sigma: options.sigma,
    threshold: options.threshold,
    budget: options.budget,
    sensitivity: 1 / holdoutRows,
    maxQueries: submissions,
    answerDecimals: answerDecimalsFor(options.sigma),
  };
  let spent = 0;
  const guarded = (): LeaderboardOracle => {
    const streams = createStreams(options.newSecret(), "preview");
    let state: ThresholdoutState = initThresholdout(params, streams);
    return async (p) => {
      const step = stepThresholdout(params, state, { holdoutValue: signAccuracy(p, labels, holdoutIdx), publicValue: signAccuracy(p, labels, publicIdx) }, streams);
      state = step.state;
      spent = options.budget - state.budget;
      return step.answer.value;
    };
  };
  const exact = (): LeaderboardOracle => async (p) => signAccuracy(p, labels, holdoutIdx);
  const checkpoints = Array.from({ length: 8 }, (_, i) => Math.round(((i + 1) * submissions) / 8));
  const curve = async (make: () => LeaderboardOracle) => {
    const points: AttackPreview["plain"] = [];
    for (const s of checkpoints) {
      const result = await boostingAttack({ rows, submissions: s, rng: seedrandom(`${options.seed}:probes`), leaderboard: make() });
      points.push({ x: s, y: result.reported });
    }
    return points;
  };
  const plain = await curve(exact);
  const guardedCurve = await curve(guarded);
  return { rows: holdoutRows, plain, protected: guardedCurve, budgetSpent: spent };
}
