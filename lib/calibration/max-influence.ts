import { check } from "../mechanism/errors";

/**
 * Lemma 3 (Zhao 2017): with a ≥ max_i I(X_{M_i} ⇝ X_i) over Markov blankets, ε-BDP is implied by
 * (ε − 4a)-DP. Throws when ε ≤ 4a: the stated correlation is too strong for this ε.
 * @param bound a, the organizer's bound on the max-influence, in nats
 */
export function maxInfluenceEpsDp(epsBdp: number, bound: number): number {
  check(epsBdp > 0, `epsilon must be positive, got ${epsBdp}`);
  checkBound(bound);
  check(epsBdp > 4 * bound, `max-influence bound ${bound} leaves no privacy at epsilon ${epsBdp}: need epsilon > 4 × bound = ${4 * bound}`);
  return epsBdp - 4 * bound;
}

/** Forward map: ε_BDP = ε_DP + 4a. */
export function maxInfluenceEpsBdp(epsDp: number, bound: number): number {
  check(epsDp > 0, `epsilon must be positive, got ${epsDp}`);
  checkBound(bound);
  return epsDp + 4 * bound;
}

function checkBound(bound: number): void {
  check(Number.isFinite(bound) && bound >= 0, `max-influence bound must be a number ≥ 0, got ${bound}`);
}
