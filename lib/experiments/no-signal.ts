import seedrandom from "seedrandom";
import { signAccuracy, normals, randomLabels } from "./data";
import type { LeaderboardOracle } from "./boosting";

export type NoSignalRow = { k: number; selected: number; training: number; reported: number | null; fresh: number };

/**
 * The experiment of Dwork et al. (NIPS 2015 §4; STOC 2015 §4.1, after Freedman 1983): no-signal
 * data, n training rows (the leaderboard's public split), n holdout rows and n fresh rows with d
 * standard-normal attributes and uniformly random ±1 labels, so no classifier beats 50% on new data.
 * The analyst as in Dwork et al.'s published code: it checks every one of the d variables on the
 * leaderboard (the sign predictor ±x_j, in the direction of its training correlation), keeps those
 * off chance by more than `margin` in the same direction on the training rows and on the leaderboard
 * (by default one standard deviation of a chance accuracy, 0.5/√n), and for each k submits the linear
 * classifier sign(Σ_j s_j x_j) over the k kept variables most correlated on the training rows.
 * Reported: the leaderboard's answer for that classifier; fresh: its accuracy on the fresh rows.
 * Rows 0…n−1 of every submission are the training rows, n…2n−1 the holdout rows.
 * @param stay for correlated labels, the probability that a row's label equals the previous row's
 */
export async function noSignalExperiment(options: {
  n: number;
  d: number;
  ks: number[];
  seed: string;
  margin?: number;
  stay?: number;
  leaderboard: LeaderboardOracle;
}): Promise<{ labels: Int8Array; rows: NoSignalRow[] }> {
  const { n, d, seed, leaderboard } = options;
  const ks = [...options.ks].sort((a, b) => a - b);
  const margin = options.margin ?? 0.5 / Math.sqrt(n);
  const labels = randomLabels(2 * n, seedrandom(`${seed}:labels`), options.stay); // training, then holdout
  const freshLabels = randomLabels(n, seedrandom(`${seed}:fresh-labels`), options.stay);

  // Training correlation of every variable, one column at a time (2n × d would not fit in memory).
  const score = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const x = normals(n, seedrandom(`${seed}:x:${j}`));
    let s = 0;
    for (let i = 0; i < n; i++) s += x[i] * labels[i];
    score[j] = s / n;
  }
  const byTraining = Array.from({ length: d }, (_, j) => j).sort((a, b) => Math.abs(score[b]) - Math.abs(score[a]));
  const column = (j: number) => normals(2 * n, seedrandom(`${seed}:x:${j}`)); // same training rows, then holdout
  const freshColumn = (j: number) => normals(n, seedrandom(`${seed}:fresh:${j}`));
  const trainRows = Uint32Array.from({ length: n }, (_, i) => i);

  // Check every variable on the leaderboard with its sign predictor; the kept ones stay in training order.
  const kept: number[] = [];
  for (const j of byTraining) {
    const x = column(j);
    const sign = Math.sign(score[j]) || 1;
    const predictor = new Int8Array(2 * n);
    for (let i = 0; i < 2 * n; i++) predictor[i] = x[i] * sign >= 0 ? 1 : -1;
    const training = signAccuracy(predictor, labels, trainRows);
    const answer = await leaderboard(predictor);
    if (answer !== null && training - 0.5 > margin && answer - 0.5 > margin) kept.push(j);
  }

  const rows: NoSignalRow[] = [];
  for (const k of ks) {
    const selected = kept.slice(0, k);
    const sum = new Float64Array(2 * n);
    const freshSum = new Float64Array(n);
    for (const j of selected) {
      const sign = Math.sign(score[j]);
      const x = column(j);
      for (let i = 0; i < 2 * n; i++) sum[i] += sign * x[i];
      const f = freshColumn(j);
      for (let i = 0; i < n; i++) freshSum[i] += sign * f[i];
    }
    const classifier = Int8Array.from(sum, (v) => (v >= 0 ? 1 : -1));
    const freshPredictions = Int8Array.from(freshSum, (v) => (v >= 0 ? 1 : -1));
    rows.push({
      k,
      selected: selected.length,
      training: signAccuracy(classifier, labels, trainRows),
      reported: await leaderboard(classifier),
      fresh: signAccuracy(freshPredictions, freshLabels),
    });
  }
  return { labels, rows };
}
