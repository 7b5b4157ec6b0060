import { check, MathInputError } from "../mechanism/errors";
import { groupsEffectiveSize, groupsEpsBdp, groupsEpsDp } from "./groups";
import { independentEpsBdp, independentEpsDp } from "./independent";
import { checkDistribution, checkTransitionMatrix, describeChain, effectiveSampleSize } from "./chain";
import { closedFormEpsDp } from "./closed-form";
import { exactQuiltEpsBdp, exactQuiltEpsDp, QUILT_SEARCH_WORK } from "./quilts";
import { maxInfluenceEpsBdp, maxInfluenceEpsDp } from "./max-influence";

/** The organizer's correlation model of the holdout rows (docs/mechanism.md §3). */
export type CorrelationModel =
  | { kind: "independent" }
  | { kind: "groups"; maxGroupSize: number }
  | {
      kind: "markov";
      transition: number[][];
      initial?: number[] | "stationary";
      /** lengths of the independent chains (one per group); default one chain of all n rows */
      chains?: number[];
    }
  | { kind: "max-influence"; bound: number };

/** Per-method answers; for a Markov chain both are valid and the better one is used. */
export type ByMethod = Record<string, number | null>;

/**
 * `exhaustive` is false when a quilt search stopped at its work guard: the value is still valid
 * (a subset of quilts gives a more conservative answer), only not the best the model allows.
 */
export type Calibration = { value: number; byMethod: ByMethod; exhaustive: boolean };

/**
 * The inverse map of docs/mechanism.md §3: the ε_DP that implies ε-BDP under `model` for a holdout of n rows.
 */
export function calibrateEpsDp(model: CorrelationModel, n: number, epsBdp: number): Calibration {
  checkSize(n);
  switch (model.kind) {
    case "independent":
      return single("independent", independentEpsDp(epsBdp));
    case "groups":
      return single("groups", groupsEpsDp(epsBdp, model.maxGroupSize));
    case "max-influence":
      return single("maxInfluence", maxInfluenceEpsDp(epsBdp, model.bound));
    case "markov": {
      const chain = prepareMarkov(model, n);
      const searches = chain.lengths.map((length) => exactQuiltEpsDp({ ...chain, length }, epsBdp, 4, chain.work));
      const exact = Math.min(...searches.map((r) => r.value));
      const closed = chain.summary.spectralGap === null ? null : closedFormForLengths(chain, epsBdp);
      return { value: Math.max(exact, closed ?? -Infinity), byMethod: { closedForm: closed, exactQuilts: exact }, exhaustive: searches.every((r) => r.exhaustive) };
    }
  }
}

/** The forward map of docs/mechanism.md §3: the BDP level that ε_DP-DP buys under `model`. */
export function calibrateEpsBdp(model: CorrelationModel, n: number, epsDp: number): Calibration {
  checkSize(n);
  switch (model.kind) {
    case "independent":
      return single("independent", independentEpsBdp(epsDp));
    case "groups":
      return single("groups", groupsEpsBdp(epsDp, model.maxGroupSize));
    case "max-influence":
      return single("maxInfluence", maxInfluenceEpsBdp(epsDp, model.bound));
    case "markov": {
      const chain = prepareMarkov(model, n);
      const searches = chain.lengths.map((length) => exactQuiltEpsBdp({ ...chain, length }, epsDp, chain.work));
      const exact = Math.max(...searches.map((r) => r.value));
      const closed = chain.summary.spectralGap === null ? null : invertIncreasing((e) => closedFormForLengths(chain, e) ?? 0, epsDp);
      return { value: Math.min(exact, closed ?? Infinity), byMethod: { closedForm: closed, exactQuilts: exact }, exhaustive: searches.every((r) => r.exhaustive) };
    }
  }
}

/** n_eff of docs/mechanism.md §2.5: the sample size the concentration step may count on. */
export function effectiveSize(model: CorrelationModel, n: number): number {
  checkSize(n);
  switch (model.kind) {
    case "independent":
    case "max-influence":
      return n;
    case "groups":
      return groupsEffectiveSize(n, model.maxGroupSize);
    case "markov": {
      const chain = prepareMarkov(model, n);
      return effectiveSampleSize(n, chain.summary.lambda);
    }
  }
}

/**
 * Why the concentration step of the guarantees does not hold under `model`, or null when it does
 * (docs/mechanism.md §2.5). Hoeffding's lemma for Markov chains (Fan, Jiang, Sun 2018), which gives
 * n_eff = n(1 − λ)/(1 + λ), is for a chain that starts from its stationary distribution: a chain
 * stated to start elsewhere gets no guarantee from either proof.
 */
export function concentrationProblem(model: CorrelationModel): string | null {
  if (model.kind !== "markov" || !Array.isArray(model.initial)) return null;
  const { stationary } = describeChain(checkTransitionMatrix(model.transition));
  const distance = Math.max(...model.initial.map((q, i) => Math.abs(q - stationary[i])));
  return distance > 1e-9
    ? 'the chain\'s initial distribution is not its stationary one, and the concentration bound for Markov chains (Fan, Jiang & Sun 2018) assumes a stationary start: set initial to "stationary"'
    : null;
}

/** Chains of many different lengths are searched one length at a time: at most this many. */
export const MAX_DISTINCT_LENGTHS = 1000;

function prepareMarkov(model: Extract<CorrelationModel, { kind: "markov" }>, n: number) {
  const transition = checkTransitionMatrix(model.transition);
  const summary = describeChain(transition);
  const initial = Array.isArray(model.initial) ? checkDistribution(model.initial, transition.size) : undefined;
  const lengths = [...new Set(model.chains ?? [n])];
  lengths.forEach((l) => check(Number.isInteger(l) && l >= 1 && l <= n, `chain lengths must be whole numbers from 1 to n = ${n}, got ${l}`));
  check(lengths.length <= MAX_DISTINCT_LENGTHS, `at most ${MAX_DISTINCT_LENGTHS} different chain lengths, got ${lengths.length}`);
  // One calibration has one work allowance, shared by the searches of its chain lengths.
  return { transition, summary, initial, lengths, work: QUILT_SEARCH_WORK / lengths.length };
}

/** Lemma 4 for every chain length (min over chains); null if it applies to none. */
function closedFormForLengths(chain: ReturnType<typeof prepareMarkov>, eps: number): number | null {
  const rho = Math.min(...chain.summary.stationary);
  let worst: number | null = null;
  for (const length of chain.lengths) {
    const h = closedFormEpsDp(eps, chain.summary.spectralGap!, rho, length);
    if (!h) return null;
    worst = worst === null ? h.epsDp : Math.min(worst, h.epsDp);
  }
  return worst;
}

/**
 * Smallest x with f(x) ≥ target for an f that grows with x (bisection to 1e-9 relative); null if
 * f stays below target up to x = 1e6. Any x with f(x) ≥ target is a valid (conservative) answer.
 */
export function invertIncreasing(f: (x: number) => number, target: number): number | null {
  let hi = Math.max(target, 1e-9);
  while (f(hi) < target) {
    hi *= 2;
    if (hi > 1e6) return null;
  }
  let lo = 0;
  while (hi - lo > 1e-9 * hi) {
    const mid = (lo + hi) / 2;
    if (f(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

function single(method: string, value: number): Calibration {
  return { value, byMethod: { [method]: value }, exhaustive: true };
}

function checkSize(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new MathInputError(`n must be a whole number ≥ 1, got ${n}`);
}
