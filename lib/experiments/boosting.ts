import type { Rng } from "../mechanism/rng";

/** A leaderboard as the attacker sees it: submit ±1 predictions for every row, get an accuracy or null (⊥). */
export type LeaderboardOracle = (predictions: Int8Array) => Promise<number | null>;

export type BoostingResult = {
  /** after each submission: how many were kept, and the leaderboard's answer for the majority vote so far */
  steps: { submissions: number; kept: number }[];
  final: Int8Array;
  reported: number | null;
};

/**
 * Blum & Hardt's boosting attack on a leaderboard ("The Ladder", ICML 2015, §3): submit uniformly
 * random ±1 vectors, keep those the leaderboard scores above chance, and submit their majority vote.
 * On a leaderboard that shows exact holdout scores the vote agrees with the holdout labels well
 * beyond chance (about √(k/n) better) although it carries no information about new data.
 * @param rows how many rows every submission covers
 * @param submissions k, the number of random probes
 */
export async function boostingAttack(options: { rows: number; submissions: number; rng: Rng; leaderboard: LeaderboardOracle }): Promise<BoostingResult> {
  const { rows, submissions, rng, leaderboard } = options;
  const votes = new Int32Array(rows);
  const steps: BoostingResult["steps"] = [];
  let kept = 0;
  for (let s = 1; s <= submissions; s++) {
    const probe = new Int8Array(rows);
    for (let i = 0; i < rows; i++) probe[i] = rng() < 0.5 ? 1 : -1;
    const answer = await leaderboard(probe);
    if (answer !== null && answer > 0.5) {
      kept++;
      for (let i = 0; i < rows; i++) votes[i] += probe[i];
    }
    steps.push({ submissions: s, kept });
  }
  const final = new Int8Array(rows);
  for (let i = 0; i < rows; i++) final[i] = votes[i] >= 0 ? 1 : -1;
  return { steps, final, reported: await leaderboard(final) };
}
