import { check } from "../mechanism/errors";

/** Independent rows: ε-DP is ε-BDP (Zhao 2017 §2.3, BDP coincides with DP for independent tuples). */
export function independentEpsDp(epsBdp: number): number {
  check(epsBdp > 0, `epsilon must be positive, got ${epsBdp}`);
  return epsBdp;
}

/** Forward map for independent rows: ε_BDP = ε_DP. */
export function independentEpsBdp(epsDp: number): number {
  check(epsDp > 0, `epsilon must be positive, got ${epsDp}`);
  return epsDp;
}
