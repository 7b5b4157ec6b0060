// The exact quilt search (docs/mechanism.md §3; Song, Wang & Chaudhuri 2017's MQMExact; Zhao 2017, Lemma 2).
import { check } from "../mechanism/errors";
import { stationaryDistribution } from "./chain";
import { type Matrix, multiply, vectorTimes } from "./linalg";

export type QuiltChain = {
  transition: Matrix;
  /** distribution of X_1; omit for a stationary start */
  initial?: Float64Array;
  /** n, the chain length */
  length: number;
};

/** A quilt of node i: X_{i−a} (a = null: no left quilt row) and X_{i+b} (b = null: none on the right). */
export type Quilt = { node: number; a: number | null; b: number | null; nearby: number; influence: number };

export type QuiltSearchResult = { value: number; quilt: Quilt; exhaustive: boolean };

/**
 * What the search maximises for one quilt of a node with |N| + 1 = m and max-influence b. It must
 * fall as m or b grows, so that `objective(m, 0)` bounds every quilt of that size (the pruning rule).
 */
type Objective = (m: number, influence: number) => number;

/**
 * Lemma 2 (Zhao 2017) by exact search over the quilts {X_{i−a}, X_{i+b}} (either side may be
 * absent): ε_DP(ε) = min_i max_Q (ε − k·b_i(Q)) / (|N_i(Q)| + 1), with k = 4 (Lemma 2) or k = 1
 * (Song et al.'s MQM, used for reference values).
 *
 * For a chain, b(a, b) = ln max_{x≠x'} L_a(x, x') R_b(x, x') with
 *   R_b(x, x') = max_v P^b[x, v] / P^b[x', v],
 *   L_a(x, x') = (q_i(x') / q_i(x)) · max_u P^a[u, x] / P^a[u, x']      (q_i = law of X_i),
 * because conditioning on a nearby row screens off the quilt row behind it (so L = ∅ attains the
 * max over L ⊆ N) and, given X_i, the two sides are independent. A missing side contributes factor 1
 * and all its rows to N.
 *
 * Pruning (provably exact): every quilt with |N| + 1 = m has value ≤ ε/m, so a node's search stops
 * at the first m with ε/m ≤ the best value found. Let H be that m for a node far from both ends
 * under the settled law of the chain (π for a stationary start).
 *
 * Which nodes to evaluate. Once the law of X_i has settled, L_a does not depend on i. Then node i
 * dominates node i + 1 on the left: every left option of i + 1 — (cost c, L_{c+1}) for c ≤ i − 2,
 * (i − 1, L_i), (i, none) — is matched by one of node i's with no more cost and an elementwise
 * smaller or equal factor ((i − 1, none), as L ≥ 1 on the support), and b grows with the factors.
 * Symmetrically node i + 1 dominates node i on the right. So, far from the other end, values only
 * fall towards the middle, and every node with i − 1 ≥ H, n − i ≥ H and a settled law left of
 * i − H has exactly the interior value (its quilts below H are the interior's). Hence
 * ε_DP = min(interior, nodes before the law settles), and every node is evaluated one by one only
 * for a chain shorter than about 2H.
 *
 * Work guard: the whole search (powers of P, factor matrices, quilts) stops after a fixed amount of
 * work (a very slowly mixing chain, or a start far from stationarity that leaves many early nodes to
 * evaluate). Every node starts from its empty quilt (no quilt rows, all n − 1 other rows nearby,
 * b = 0), which is always valid, and any subset of quilts gives a valid, more conservative answer;
 * nodes the search did not reach count with their empty quilt. Such an answer is reported as not
 * exhaustive, and is never below the empty-quilt bound ε/n.
 * @param eps the BDP level ε > 0
 * @param work the work allowed for the whole search (callers running several searches share theirs)
 */
export function exactQuiltEpsDp(chain: QuiltChain, eps: number, influenceFactor = 4, work = QUILT_SEARCH_WORK): QuiltSearchResult {
  check(eps > 0, `epsilon must be positive, got ${eps}`);
  return searchQuilts(
    chain,
    (m, b) => (eps - influenceFactor * b) / m,
    (v) => v,
    work,
  );
}

/**
 * The forward map (docs/mechanism.md §3): the BDP level that ε_DP-DP buys, ε_BDP = max_i min_Q ((|N|+1) ε_DP + 4 b_i(Q)),
 * by the same exact search (a quilt with |N| + 1 = m costs at least m ε_DP).
 */
export function exactQuiltEpsBdp(chain: QuiltChain, epsDp: number, work = QUILT_SEARCH_WORK): QuiltSearchResult {
  check(epsDp > 0, `epsilon must be positive, got ${epsDp}`);
  return searchQuilts(
    chain,
    (m, b) => -(m * epsDp + 4 * b),
    (v) => -v,
    work,
  );
}

/**
 * b_i(Q) of one quilt by the factorised formula above (for tests and the organizer's quilt view).
 * @param node i (1-based); @param a left distance or null; @param b right distance or null
 */
export function quiltInfluence(chain: QuiltChain, node: number, a: number | null, b: number | null): number {
  check(a === null || (a >= 1 && node - a >= 1), `left quilt row ${node} − ${a} is outside the chain`);
  check(b === null || (b >= 1 && node + b <= chain.length), `right quilt row ${node} + ${b} is outside the chain`);
  const factors = new QuiltFactors(chain, QUILT_SEARCH_WORK);
  return factors.influence(node, a === null ? null : factors.left(node, a), b === null ? null : factors.right(node, b));
}

/** Work allowed for one calibration's searches, in multiply-adds (about a second here). */
export const QUILT_SEARCH_WORK = 3e8;
/** What a factor look-up or a quilt costs beyond its arithmetic (keys, calls), in multiply-adds. */
const OVERHEAD = 200;

function searchQuilts(chain: QuiltChain, objective: Objective, report: (v: number) => number, work: number): QuiltSearchResult {
  const n = chain.length;
  check(Number.isInteger(n) && n >= 1, `chain length must be a whole number ≥ 1, got ${n}`);
  const factors = new QuiltFactors(chain, work / 4);
  const empty: NodeResult = { value: objective(n, 0), quilt: { node: 1, a: null, b: null, nearby: n - 1, influence: 0 }, horizon: n + 1, exhaustive: true };
  const settled = factors.settledIndex();
  const interior = settled === null ? null : searchNode(factors, objective, { node: Infinity, left: Infinity, right: Infinity, maxNearby: n - 1 }, work / 2);
  const hasInterior = interior !== null && n >= settled! + 2 * interior.horizon;
  const results = hasInterior ? [interior] : [];
  const lastEach = hasInterior ? settled! - 1 : n;
  // An unsettled law is known only as far as it was computed.
  const evaluable = settled === null ? Math.min(lastEach, factors.knownLaws) : lastEach;
  let reached = 0;
  for (let i = 1; i <= evaluable && factors.work < work; i++, reached++) {
    // What is left is shared by the nodes still to come; each at least tries its nearest quilt.
    const share = (work - factors.work) / (evaluable - i + 1);
    results.push(searchNode(factors, objective, { node: i, left: i - 1, right: n - i, maxNearby: n - 1 }, factors.work + share));
  }
  if (reached < lastEach) results.push({ ...empty, quilt: { ...empty.quilt, node: reached + 1 }, exhaustive: false });
  const worst = results.reduce((w, r) => (r.value < w.value ? r : w));
  const node = Number.isFinite(worst.quilt.node) ? worst.quilt.node : Math.floor((n + 1) / 2);
  return {
    value: report(worst.value),
    quilt: { ...worst.quilt, node },
    exhaustive: results.every((r) => r.exhaustive),
  };
}

type NodeSpec = { node: number; left: number; right: number; maxNearby: number };
type NodeResult = { value: number; quilt: Quilt; horizon: number; exhaustive: boolean };

/**
 * The best quilt of one node, starting from its empty quilt. Left cost cl ∈ [0, left] (cl = left:
 * no left quilt row, all `left` rows nearby; otherwise a = cl + 1), likewise on the right,
 * |N| = cl + cr ≤ maxNearby. Stops, not exhaustive, once the factors' work passes `workLimit`.
 */
function searchNode(factors: QuiltFactors, objective: Objective, spec: NodeSpec, workLimit: number): NodeResult {
  const maxNearby = Math.min(spec.left + spec.right, spec.maxNearby);
  let best = objective(maxNearby + 1, 0);
  let quilt: Quilt = { node: spec.node, a: null, b: null, nearby: maxNearby, influence: 0 };
  let t = 0;
  for (; t < maxNearby; t++) {
    const m = t + 1;
    if (objective(m, 0) <= best) break;
    if (factors.work > workLimit) return { value: best, quilt, horizon: m, exhaustive: false };
    for (let cl = Math.max(0, t - spec.right); cl <= Math.min(t, spec.left); cl++) {
      const cr = t - cl;
      const a = cl === spec.left ? null : cl + 1;
      const b = cr === spec.right ? null : cr + 1;
      const left = a === null ? null : factors.left(spec.node, a);
      const right = b === null ? null : factors.right(spec.node, b);
      const lower = Math.max(left?.logMax ?? 0, right?.logMax ?? 0);
      if (objective(m, lower) <= best) continue;
      const influence = factors.influence(spec.node, left, right);
      const value = objective(m, influence);
      if (value > best) {
        best = value;
        quilt = { node: spec.node, a, b, nearby: t, influence };
      }
    }
  }
  return { value: best, quilt, horizon: t + 1, exhaustive: true };
}

/** L_a or R_b for one node: the S×S matrix of ratios and ln of its max over the node's support. */
type Factor = { ratios: Float64Array; logMax: number };

/** Powers of P, marginals q_i and the factor matrices, computed once and cached. */
class QuiltFactors {
  private readonly p: Matrix;
  readonly size: number;
  private readonly powers: Matrix[] = [];
  private readonly marginals: Float64Array[];
  private readonly stationary: Float64Array;
  private readonly cache = new Map<string, Factor>();
  private readonly settled: boolean;
  /** multiply-adds spent so far (marginals, powers, factors, quilts) */
  work = 0;

  /** @param marginalWork the most work spent on the laws q_1, q_2, … of a non-stationary start */
  constructor(chain: QuiltChain, marginalWork: number) {
    this.p = chain.transition;
    this.size = chain.transition.size;
    this.stationary = stationaryDistribution(this.p);
    // q_1, q_2, … until the law stops changing in floating point (then it is π), or the work runs out.
    this.marginals = [];
    this.settled = !chain.initial;
    if (chain.initial) {
      let q = chain.initial;
      const steps = Math.min(chain.length, Math.floor(marginalWork / this.size ** 2));
      for (let i = 0; i < steps; i++) {
        this.marginals.push(q);
        const next = vectorTimes(q, this.p);
        this.work += this.size ** 2;
        if (next.every((x, j) => Math.abs(x - q[j]) <= 1e-16 * Math.max(1, q[j]))) {
          this.settled = true;
          break;
        }
        q = next;
      }
    }
  }

  /** How many of the laws q_1, q_2, … are known (all, for a stationary start) */
  get knownLaws(): number {
    return this.marginals.length === 0 ? Infinity : this.marginals.length;
  }

  /** First node index whose law is the settled one (1 for a stationary start); null if it did not settle within the work allowed. */
  settledIndex(): number | null {
    return this.settled ? Math.max(1, this.marginals.length) : null;
  }

  private marginal(i: number): { q: Float64Array; key: string } {
    if (this.marginals.length === 0) return { q: this.stationary, key: "π" };
    const k = Math.min(i, this.marginals.length);
    return { q: this.marginals[k - 1], key: String(k) };
  }

  private power(k: number): Matrix {
    while (this.powers.length < k) {
      const last = this.powers.length === 0 ? null : this.powers[this.powers.length - 1];
      this.powers.push(last ? multiply(last, this.p) : this.p);
      this.work += this.size ** 3;
    }
    return this.powers[k - 1];
  }

  /** R_b(x, x') = max_v P^b[x, v] / P^b[x', v], over the support of X_i. */
  right(node: number, b: number): Factor {
    const { q, key } = this.marginal(node);
    return this.memo(`R${b}|${supportKey(q, key)}`, () => {
      const s = this.size;
      const pb = this.power(b).data;
      const ratios = new Float64Array(s * s);
      for (let x = 0; x < s; x++)
        for (let y = 0; y < s; y++) {
          if (x === y) continue;
          let r = 0;
          for (let v = 0; v < s; v++) r = Math.max(r, ratio(pb[x * s + v], pb[y * s + v]));
          ratios[x * s + y] = r;
        }
      return { ratios, logMax: Math.log(maxOverSupport(ratios, q)) };
    });
  }

  /** L_a(x, x') = (q_i(x')/q_i(x)) max_{u ∈ supp q_{i−a}} P^a[u, x] / P^a[u, x']. */
  left(node: number, a: number): Factor {
    const { q: qi, key: ki } = this.marginal(node);
    const { q: qu, key: ku } = this.marginal(node - a);
    return this.memo(`L${a}|${ki}|${ku}`, () => {
      const s = this.size;
      const pa = this.power(a).data;
      const ratios = new Float64Array(s * s);
      for (let x = 0; x < s; x++)
        for (let y = 0; y < s; y++) {
          if (x === y || qi[x] === 0 || qi[y] === 0) continue;
          let r = 0;
          for (let u = 0; u < s; u++) if (qu[u] > 0) r = Math.max(r, ratio(pa[u * s + x], pa[u * s + y]));
          ratios[x * s + y] = (qi[y] / qi[x]) * r;
        }
      return { ratios, logMax: Math.log(maxOverSupport(ratios, qi)) };
    });
  }

  /** b = ln max_{x≠x' in supp q_i} L(x, x') R(x, x'), a missing side being 1. */
  influence(node: number, left: Factor | null, right: Factor | null): number {
    this.work += this.size ** 2 + OVERHEAD;
    if (!left && !right) return 0;
    if (!left || !right) return (left ?? right)!.logMax;
    const { q } = this.marginal(node);
    const s = this.size;
    let best = 0;
    for (let x = 0; x < s; x++) {
      if (q[x] === 0) continue;
      for (let y = 0; y < s; y++) {
        if (x === y || q[y] === 0) continue;
        const v = left.ratios[x * s + y] * right.ratios[x * s + y];
        if (v > best) best = v;
      }
    }
    return Math.log(best);
  }

  private memo(key: string, make: () => Factor): Factor {
    this.work += OVERHEAD;
    let f = this.cache.get(key);
    if (!f) {
      this.work += this.size ** 3;
      f = make();
      this.cache.set(key, f);
    }
    return f;
  }
}

/** num/den for probabilities: 0 when num is 0 (that value cannot occur), ∞ when only den is 0. */
function ratio(num: number, den: number): number {
  if (num === 0) return 0;
  return den === 0 ? Infinity : num / den;
}

function maxOverSupport(ratios: Float64Array, q: Float64Array): number {
  const s = q.length;
  let best = 0;
  for (let x = 0; x < s; x++) for (let y = 0; y < s; y++) if (x !== y && q[x] > 0 && q[y] > 0 && ratios[x * s + y] > best) best = ratios[x * s + y];
  return best;
}

function supportKey(q: Float64Array, key: string): string {
  return key === "π" ? key : Array.from(q, (x) => (x > 0 ? 1 : 0)).join("");
}
