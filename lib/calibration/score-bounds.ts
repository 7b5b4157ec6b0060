import { check } from "../mechanism/errors";
import { discreteLaplaceQuantile, gridFor } from "../mechanism/noise";
import type { Concentration } from "./concentration";
import { answerValues, lnChoose } from "./description-length";

/**
 * A bound for each shown score, as tight as the score's own history allows (docs/mechanism.md §2.8).
 *
 * The count of §2.7 gives every query of a team the same deviation, the one the worst transcript
 * needs. A score's interval may instead depend on the transcript before it (Rogers, Roth, Smith,
 * Srebro, Thakkar & Woodworth, AISTATS 2020, "Guess and Check": a data-dependent allocation of β).
 * Query i asked after f holdout answers is a fixed function of its prefix transcript, one of
 * C(i−1, f)·R^f (times m + 1 when the competition caps holdout answers: the prefix also says where
 * the cap was reached), so giving it
 *   δ(i, f) = β_dev / (m·(B + 1)·[m + 1]·C(i−1, f)·R^f)
 * keeps the sum over every query index and prefix transcript at most β_dev: with probability
 * ≥ 1 − β_dev every query's holdout value Q(X) is within its own deviation of the truth Q(P), the
 * deviation of a fixed query at failure probability δ(i, f) (concentration.ts: N_c·kl(Q(X)‖Q(P)) ≤
 * ln(2/δ) for a mean of independent rows, Hoeffding 1963 Theorem 1; 2N_c t² ≤ ln(2/δ) otherwise).
 * A team never checked on the holdout keeps the deviation of f = 0 for all its m queries; each
 * holdout answer widens its later ones by about ln(i·R) nats.
 *
 * A shown score is then within a known distance of Q(X) (the rest of β, split β_T + β_γ + β_A):
 *   - a public answer a = Q(D) is released only when |Q(X) − Q(D)| + γ ≤ T̂ = T + z, so
 *     |Q(X) − a| ≤ T + |z| + |γ|, with |z| (Lap(σ)) at β_T/(B + 1) over the threshold epochs and |γ|
 *     (Lap(2σ)) at β_γ/m over the comparisons;
 *   - a holdout answer a = Q(X) + Lap(4σ), rounded to d decimals: |Q(X) − a| ≤ |Lap(4σ)| at β_A/B
 *     over the holdout answers, plus half a release step;
 * and both add the grid's rounding (docs/mechanism.md §2.3). The interval for Q(P) is the union of the
 * deviation intervals over every Q(X) within that distance of a. With probability ≥ 1 − β every
 * score the team is shown lies in its interval, simultaneously.
 *
 * The split of β is fixed before any data (it depends on σ, T, m, B₀, N_c only): β_A = β/10, and the
 * rest shared among β_dev, β_T and β_γ to make a never-checked team's public score's bound (i = m,
 * f = 0) as small as it can be (optimalSplit).
 */

/** How β is shared among the deviation and the three noises, as fractions summing to 1. */
export type BetaSplit = { deviation: number; threshold: number; comparison: number; answer: number };

/** Everything a score's bound depends on besides the score: fixed when the competition is published. */
export type ScoreBoundSetting = {
  concentration: Pick<Concentration, "size" | "kl">;
  /** m, the queries per team the guarantee covers */
  maxQueries: number;
  /** d: holdout answers are released rounded to d decimals, so each takes one of R = 10^d + 1 values */
  decimals: number;
  /** whether the competition caps holdout answers over all teams (the prefix then says where the cap was reached) */
  capped: boolean;
  sigma: number;
  threshold: number;
  /** Δ of the queries: the grid is gridFor(Δ) */
  sensitivity: number;
  beta: number;
  split: BetaSplit;
};

/** One shown score: the answer's kind and released value ([0, 1] units), its position i in the team's transcript, f holdout answers before it, and the team's budget B₀. */
export type ShownScore = { kind: "public" | "holdout"; value: number; index: number; prior: number; budget: number };

/** The share of β the holdout answers' noise gets. */
const ANSWER_SHARE = 0.1;

/**
 * ln(1/δ(i, f)) − ln(1/β_dev) = ln(m·(B + 1)·[m + 1]·C(i−1, f)·R^f): the nats a query's prefix costs.
 */
export function prefixNats(setting: Pick<ScoreBoundSetting, "maxQueries" | "decimals" | "capped">, score: Pick<ShownScore, "index" | "prior" | "budget">): number {
  const { maxQueries: m } = setting;
  const { index: i, prior: f, budget: b } = score;
  check(Number.isInteger(i) && i >= 1 && i <= m, `a score's position must be a whole number from 1 to m = ${m}, got ${i}`);
  check(Number.isInteger(b) && b >= 0, `the team's budget must be a whole number ≥ 0, got ${b}`);
  check(Number.isInteger(f) && f >= 0 && f <= Math.min(i - 1, b), `holdout answers before query ${i} must be a whole number from 0 to ${Math.min(i - 1, b)}, got ${f}`);
  return Math.log(m) + Math.log(b + 1) + (setting.capped ? Math.log(m + 1) : 0) + lnChoose(i - 1, f) + f * Math.log(answerValues(setting.decimals));
}

/** kl(q‖p) between Bernoulli(q) and Bernoulli(p), in nats. */
export function bernoulliKl(q: number, p: number): number {
  const term = (a: number, b: number) => (a === 0 ? 0 : b === 0 ? Infinity : a * Math.log(a / b));
  return term(q, p) + term(1 - q, 1 - p);
}

/**
 * The p on `side` of q with N·kl(q‖p) = L, or the end of [0, 1] when even it is within L: the
 * Chernoff–KL interval's end for an observed mean q. N·kl(q‖·) is convex, so Newton's method started
 * outside the root (Pinsker: kl(q‖p) ≥ 2(p − q)², so p = q ± √(L/(2N)) is outside) stays outside and
 * converges; a step that would leave the bracket bisects instead. The answer is never inside the
 * interval's true end (a wider interval, never a narrower one).
 */
function klEnd(q: number, size: number, nats: number, side: "lower" | "upper"): number {
  const end = side === "upper" ? 1 : 0;
  if (size * bernoulliKl(q, end) <= nats) return end;
  const sign = side === "upper" ? 1 : -1;
  const excess = (p: number) => size * bernoulliKl(q, p) - nats;
  let inside = q;
  let outside = Math.min(1, Math.max(0, q + sign * Math.sqrt(nats / (2 * size))));
  for (let step = 0; step < 100; step++) {
    const over = excess(outside);
    if (over <= 1e-12 * nats) break;
    // d/dp N·kl(q‖p) = N(p − q)/(p(1 − p))
    let next = outside - over / ((size * (outside - q)) / (outside * (1 - outside)));
    if (!Number.isFinite(next) || (next - inside) * sign <= 0 || (outside - next) * sign <= 0) next = (inside + outside) / 2;
    if (excess(next) > 0) outside = next;
    else inside = next;
    if (Math.abs(outside - inside) <= 1e-15) break;
  }
  return outside;
}

/** |Z| ≤ w except with probability α, for Z the discrete Laplace of `scale` on the grid. */
function noiseQuantile(scale: number, alpha: number, grid: number): number {
  return discreteLaplaceQuantile(1 - alpha / 2, scale, grid);
}

/** How far a shown score can be from its query's holdout value Q(X), except with its share of β ([0, 1] units). */
export function releaseSlack(setting: ScoreBoundSetting, score: Pick<ShownScore, "kind" | "budget">): number {
  const { sigma, threshold, beta, split, maxQueries } = setting;
  const grid = gridFor(setting.sensitivity);
  if (score.kind === "public") {
    const epochs = score.budget + 1;
    return threshold + noiseQuantile(sigma, (beta * split.threshold) / epochs, grid) + noiseQuantile(2 * sigma, (beta * split.comparison) / maxQueries, grid) + 2 * grid;
  }
  return noiseQuantile(4 * sigma, (beta * split.answer) / Math.max(1, score.budget), grid) + 0.5 * 10 ** -setting.decimals + grid;
}

/**
 * The interval [lower, upper] ⊂ [0, 1] that holds the shown score's true value Q(P), in [0, 1] units
 * (with every other score of its team, with probability ≥ 1 − β). Throws for a position past m or more
 * holdout answers than the position and budget allow.
 */
export function scoreInterval(setting: ScoreBoundSetting, score: ShownScore): { lower: number; upper: number } {
  check(score.value >= 0 && score.value <= 1, `a score must be in [0, 1], got ${score.value}`);
  const { nats, slack } = placeOf(setting, score);
  return truthInterval(setting.concentration, { low: Math.max(0, score.value - slack), high: Math.min(1, score.value + slack) }, nats);
}

/**
 * Where the truth Q(P) of a query can be when its holdout value Q(X) lies in [low, high], at
 * ln(2/δ) = `nats` (§2.5's inequality for a fixed query): the Chernoff–KL interval where it holds,
 * Hoeffding's otherwise, each end clamped to [0, 1].
 */
export function truthInterval(concentration: Pick<Concentration, "size" | "kl">, { low, high }: { low: number; high: number }, nats: number): { lower: number; upper: number } {
  const { size, kl } = concentration;
  if (kl) return { lower: klEnd(low, size, nats, "lower"), upper: klEnd(high, size, nats, "upper") };
  const deviation = Math.sqrt(nats / (2 * size));
  return { lower: Math.max(0, low - deviation), upper: Math.min(1, high + deviation) };
}

// A board shows many scores at few places (position, holdout answers before it, budget): each place's
// nats and release slack are computed once per setting (a competition's, kept by its server).
const places = new WeakMap<ScoreBoundSetting, Map<string, { nats: number; slack: number }>>();

/** ln(2/δ(i, f)) and the release slack of a score's place and kind. */
function placeOf(setting: ScoreBoundSetting, score: Omit<ShownScore, "value">): { nats: number; slack: number } {
  let known = places.get(setting);
  if (!known) places.set(setting, (known = new Map()));
  const key = `${score.kind}:${score.index}:${score.prior}:${score.budget}`;
  let place = known.get(key);
  if (!place) {
    place = { nats: Math.log(2 / (setting.beta * setting.split.deviation)) + prefixNats(setting, score), slack: releaseSlack(setting, score) };
    if (known.size >= 100_000) known.clear();
    known.set(key, place);
  }
  return place;
}

/**
 * The half-width of a score's interval that holds for every value it can take (Hoeffding's form,
 * which contains the Chernoff–KL interval: kl(q‖p) ≥ 2(q − p)², Pinsker): what a team at this position
 * with f holdout answers before it can count on, whatever it scores ([0, 1] units).
 */
export function worstHalfWidth(setting: ScoreBoundSetting, score: Omit<ShownScore, "value">): number {
  const nats = Math.log(2 / (setting.beta * setting.split.deviation)) + prefixNats(setting, score);
  return releaseSlack(setting, score) + Math.sqrt(nats / (2 * setting.concentration.size));
}

/**
 * The split of β that makes a never-checked team's public score at its last query (i = m, f = 0) as
 * tight as it can be, Hoeffding's form: β_A = β/10, and a grid search in steps of 2 % of β over the
 * shares of β_dev, β_T and β_γ (the bound moves by well under 1 % between neighbouring steps).
 */
export function optimalSplit(setting: Omit<ScoreBoundSetting, "split">, budget: number): BetaSplit {
  let best: { split: BetaSplit; width: number } | null = null;
  const rest = 1 - ANSWER_SHARE;
  const steps = 45;
  for (let dev = 1; dev < steps; dev++) {
    for (let thr = 1; dev + thr < steps; thr++) {
      const split = { deviation: (dev / steps) * rest, threshold: (thr / steps) * rest, comparison: ((steps - dev - thr) / steps) * rest, answer: ANSWER_SHARE };
      const width = worstHalfWidth({ ...setting, split }, { kind: "public", index: setting.maxQueries, prior: 0, budget });
      if (!best || width < best.width) best = { split, width };
    }
  }
  return best!.split;
}

/** The settings of a competition's bounds with β split for its B₀ (optimalSplit). */
export function boundSettingFor(input: Omit<ScoreBoundSetting, "split">, budget: number): ScoreBoundSetting {
  return { ...input, split: optimalSplit(input, budget) };
}

/** Holdout checks at which the promise is stated: none, one, five and the whole budget (those ≤ B₀). */
const PROMISE_CHECKS = [0, 1, 5];

/**
 * The per-team promise by holdout checks used (docs/mechanism.md §2.8): for a team that has received
 * f holdout answers, every score it is shown from then on is within this of its true score ([0, 1]
 * units, any value: Hoeffding's form, at the last query i = m, which bounds every earlier one), at
 * f = 0, 1, 5 and B₀.
 */
export function promiseByChecks(setting: ScoreBoundSetting, budget: number): { checks: number; bound: number }[] {
  const checks = [...new Set([...PROMISE_CHECKS.filter((f) => f < budget), budget])];
  return checks.map((f) => {
    const place = { index: setting.maxQueries, prior: Math.min(f, setting.maxQueries - 1), budget };
    const publicAnswer = worstHalfWidth(setting, { kind: "public", ...place });
    const holdoutAnswer = f < budget ? worstHalfWidth(setting, { kind: "holdout", ...place }) : 0;
    return { checks: f, bound: Math.max(publicAnswer, holdoutAnswer) };
  });
}

/**
 * Each answer's place in its team's transcript, from the team's answers in time order (a merged
 * team's included): its position i (1-based, every query counted, ⊥ and limits too) and the holdout
 * answers f before it.
 */
export function transcriptPlaces(kinds: readonly string[]): { index: number; prior: number }[] {
  let prior = 0;
  return kinds.map((kind, k) => {
    const place = { index: k + 1, prior };
    if (kind === "holdout") prior++;
    return place;
  });
}
