import { check } from "../mechanism/errors";

/**
 * Groups of at most k rows, arbitrarily correlated within a group and independent across groups.
 * Lemma 2 (Zhao 2017) with the empty quilt of each row (its group-mates are its nearby set, b = 0):
 * ε_DP(ε) = ε / k_max.
 * @param maxGroupSize k_max ≥ 1
 */
export function groupsEpsDp(epsBdp: number, maxGroupSize: number): number {
  checkGroup(epsBdp, maxGroupSize);
  return epsBdp / maxGroupSize;
}

/** Forward map: ε_BDP = k_max · ε_DP. */
export function groupsEpsBdp(epsDp: number, maxGroupSize: number): number {
  checkGroup(epsDp, maxGroupSize);
  return epsDp * maxGroupSize;
}

/** n_eff = n / k_max (docs/mechanism.md §2.5). */
export function groupsEffectiveSize(n: number, maxGroupSize: number): number {
  return n / maxGroupSize;
}

function checkGroup(eps: number, k: number): void {
  check(eps > 0, `epsilon must be positive, got ${eps}`);
  check(Number.isInteger(k) && k >= 1, `largest group size must be a whole number ≥ 1, got ${k}`);
}
