import { epsDpForBudget } from "../mechanism/accounting";
import { check } from "../mechanism/errors";
import { answerDecimalsFor } from "../mechanism/thresholdout";
import { descriptionLengthBound } from "./description-length";
import { expectedCharges, honestGapSd, recommendSettings } from "./honest";
import { type BetaSplit, boundSettingFor, promiseByChecks } from "./score-bounds";
import { concentrationOf, COVERED_MODELS, isCovered } from "./concentration";
import { type ByMethod, calibrateEpsBdp, effectiveSize } from "./models";
import { concentrationFor, deltaOf, maxBudget, requiredN, type Setting as Theorem2Setting, theorem2Parameters } from "./theorem2";

/**
 * The planner (docs/mechanism.md §2.4, §2.6, §2.7): σ, T and the budget B₀ for a holdout, and what
 * they guarantee. Two proofs bound the distance of every answer to the truth, and the planner uses
 * the tighter:
 *   - "bdp": Zhao 2017, Theorem 2 (theorem2.ts), through differential privacy and max-information;
 *     at competition sizes it allows no budget below n ≈ 10⁵;
 *   - "description-length": Dwork et al. 2015, Theorem 6 (description-length.ts), a count of the
 *     transcripts a team can see; it holds whatever σ is, so σ and T are then chosen for honest teams
 *     (honest.ts: fewer than 0.1 expected charges over m queries).
 * Both cover a team acting on its own answers. The competition-wide figure covers anyone, whatever
 * they read on the public board and however many accounts they hold: the same count over every
 * team's queries with at most H holdout answers in all (the holdout cap).
 */
export type GuaranteeInput = { tolerance: number; beta: number; maxQueries: number; split?: number };
export type PracticalInput = { sigma: number; threshold: number; budget: number };

/**
 * The data a plan is for: holdout rows n, their correlation and the metric's Δ, concentration size
 * and additivity (theorem2.ts Setting); the public split's concentration size (`publicRows`: its rows
 * for a mean, n when not given); and for the competition-wide figure the number of teams M (the
 * competition's teams once it runs, an expectation before; DEFAULT_TEAMS when not given) and the
 * holdout cap.
 */
export type Setting = Theorem2Setting & { publicRows?: number; teams?: number; holdoutCap?: number | null };

export type Proof = "bdp" | "description-length";

export type Guarantee = {
  holds: boolean;
  /** the proof whose tolerance is reported (the tighter of the two that hold); null when neither holds */
  proof: Proof | null;
  /** who it covers: a team acting on its own answers (docs/mechanism.md §2.7) */
  scope: "team";
  /** the distance every answer a team gets is within, with probability ≥ 1 − β; null when no proof gives one */
  tolerance: number | null;
  /** Theorem 2's n_# for this budget (counting n_eff for its concentration term); null when no τ matches */
  requiredN: number | null;
  beta: number;
  maxQueries: number;
  /** Theorem 2's split constant c; null when σ and T do not match any Theorem 2 setting */
  split: number | null;
  byProof: {
    bdp: { holds: boolean; tolerance: number | null };
    /** null where the count does not apply (a max-influence model gives no concentration bound) */
    descriptionLength: { holds: boolean; tolerance: number; deviation: number; publicAnswer: number; holdoutAnswer: number } | null;
  };
  /** plain words for the organizer */
  explanation: string;
};

/** The figure that covers everyone (docs/mechanism.md §2.7): the count over every team's queries, at most H holdout answers in all. */
export type CompetitionWide = {
  scope: "competition";
  /** the number of teams it is computed for, each with m queries */
  teams: number;
  /** H, the competition's cap on holdout answers over all teams; null: no cap, so no competition-wide figure */
  cap: number | null;
  tolerance: number | null;
  holds: boolean;
  /** τ_all for several caps H, so an organizer can choose an H above what honest teams need */
  curve: { cap: number; tolerance: number }[];
  /** the holdout answers honest teams are expected to spend together: teams × expected charges per team */
  honestCharges: number;
  explanation: string;
};

export type Honest = {
  /** s, the sd of an honest model's public − holdout gap */
  gapSd: number;
  /** expected charges of an honest team over its m queries at this plan's σ and T */
  expectedCharges: number;
  /** the settings honest teams are best served by (σ = T/32, fewer than 0.1 expected charges) */
  recommended: { sigma: number; threshold: number; expectedCharges: number };
};

/**
 * The per-score bounds at this plan (docs/mechanism.md §2.8, score-bounds.ts): the concentration
 * step they rest on, β's split, and the per-team promise by holdout checks used.
 */
export type ScoresPromise = {
  /** N_c and the inequality that gives it (concentration.ts) */
  concentration: { size: number; inequality: string };
  split: BetaSplit;
  /** every score a team is shown after f holdout checks is within `bound` of its true score (probability ≥ 1 − β), [0, 1] units */
  byChecks: { checks: number; bound: number }[];
};

export type Plan = {
  sigma: number;
  threshold: number;
  budget: number;
  /** holdout answers are released rounded to this many decimals (thresholdout.ts answerDecimalsFor) */
  answerDecimals: number;
  /** ε_DP of the whole mechanism for one team: 9 B (Δ_Q + g) / (4σ) */
  epsDp: number;
  /** the BDP level that ε_DP buys under the correlation model (forward map) */
  epsBdp: number;
  byMethod: ByMethod;
  /** false when a quilt search stopped at its work guard: the numbers are valid but conservative */
  exhaustive: boolean;
  nEff: number;
  guarantee: Guarantee;
  competition: CompetitionWide;
  honest: Honest;
  /** null where no inequality covers the metric and model, or the budget is 0 */
  scores: ScoresPromise | null;
  /** when a guarantee does not hold (for a team, or for everyone): changes that would make it hold, each in words */
  remedies: Remedy[];
};

/**
 * A change that would make a guarantee hold (docs/mechanism.md §2.4): the holdout's size, the scored
 * submissions per team m, the budget B₀, the settings, the cap H on holdout answers over all teams (for
 * the competition-wide figure), the correlation model or the metric. `to` is the number that works (null for a choice).
 */
export type Remedy = { change: "holdout" | "submissions" | "budget" | "settings" | "cap" | "model" | "metric"; to: number | null; text: string };

/**
 * A tolerance of half a [0, 1] metric's range or more says nothing a team could use: the planner
 * reports it as no guarantee.
 */
export const MEANINGFUL_TOLERANCE = 0.5;

/** The number of teams a draft's competition-wide figure is planned for when the organizer states none. */
export const DEFAULT_TEAMS = 1000;

/**
 * The share of β the competition-wide figure spends on M teams: 6/(π² M²), so that the shares of all
 * M ≥ 1 sum to at most 1. The number of teams is not fixed in advance (teams join after reading the
 * board), so a figure stated for the teams there are must hold for every M at once: a union over M
 * with these weights (docs/mechanism.md §2.7).
 */
export function teamsShare(teams: number): number {
  check(Number.isInteger(teams) && teams >= 1, `teams must be a whole number ≥ 1, got ${teams}`);
  return 6 / (Math.PI ** 2 * teams ** 2);
}
const CAPS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

/**
 * The sd of an honest gap for this setting: both splits' concentration sizes counted at the holdout's
 * ratio n_eff / n (an estimate of the sampling variance for the recommended settings, not a bound).
 */
function gapSdOf(setting: Setting): number {
  const ratio = effectiveSize(setting.model, setting.n) / setting.n;
  const holdout = setting.concentration ?? setting.n;
  return honestGapSd((setting.publicRows ?? holdout) * ratio, holdout * ratio);
}

/** The count's bound for one team (null where no inequality covers the metric and model). */
function countForTeam(setting: Setting, p: PracticalInput, beta: number, maxQueries: number) {
  const concentration = concentrationFor(setting);
  if (!concentration) return null;
  return descriptionLengthBound({
    sensitivity: deltaOf(setting),
    nEff: concentration.size,
    queries: maxQueries,
    budget: p.budget,
    decimals: answerDecimalsFor(p.sigma),
    sigma: p.sigma,
    threshold: p.threshold,
    beta,
    capped: (setting.holdoutCap ?? null) !== null,
  });
}

/**
 * The largest budget B ≤ m for which the count keeps every answer within τ at these σ and T (its
 * tolerance grows with B: bisection); 0 when even B = 0 is not within τ, or the count does not apply.
 */
export function largestCountBudget(setting: Setting, noise: { sigma: number; threshold: number }, options: { beta: number; maxQueries: number }, tau: number): number {
  const count = (budget: number) => countForTeam(setting, { ...noise, budget }, options.beta, options.maxQueries);
  if ((count(0)?.tolerance ?? Infinity) > tau) return 0;
  let lo = 0;
  let hi = options.maxQueries;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(mid)!.tolerance <= tau) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Guarantee mode: the largest budget either proof allows at tolerance τ, with that proof's σ and T. */
export function planGuarantee(setting: Setting, input: GuaranteeInput): Plan {
  const { tolerance: tau, beta, maxQueries } = input;
  const t = theorem2Parameters(input); // checks τ, β, m and c
  const bdp = maxBudget(setting, input).budget;
  const recommended = recommendSettings({ gapSd: gapSdOf(setting), queries: maxQueries });
  // A tolerance of half the range or more is no guarantee (MEANINGFUL_TOLERANCE): the budget stops below it.
  const dl = largestCountBudget(setting, recommended, { beta, maxQueries }, Math.min(tau, MEANINGFUL_TOLERANCE * (1 - 1e-9)));
  const useCount = dl >= 1 && dl >= bdp;
  const chosen = useCount ? { sigma: recommended.sigma, threshold: recommended.threshold, budget: dl } : { sigma: t.sigma, threshold: t.threshold, budget: bdp };
  return describe(setting, chosen, { beta, maxQueries, split: useCount ? null : t.split, requested: tau });
}

/**
 * Practical mode (docs/mechanism.md §2.4): σ, T and B₀ set directly; the plan reports what each proof
 * gives for them. Theorem 2 matches when some (τ, c) fits: (1 − c)τ = 12 σ ln(4m/β) and
 * (1 + c)τ = 2T, so τ = 6 σ ln(4m/β) + T and c = (2T − A)/(2T + A) with A = 12 σ ln(4m/β), and it
 * holds when c ∈ (0, 1), τ ≤ 1 and n ≥ n_#(B₀).
 */
export function planPractical(setting: Setting, input: PracticalInput & { beta: number; maxQueries: number }): Plan {
  const { sigma, threshold, budget, beta, maxQueries } = input;
  check(Number.isFinite(sigma) && sigma > 0, `sigma must be a positive number, got ${sigma}`);
  check(Number.isFinite(threshold) && threshold > 0, `threshold must be a positive number, got ${threshold}`);
  check(Number.isInteger(budget) && budget >= 1, `budget must be a whole number ≥ 1, got ${budget}`);
  const a = 12 * sigma * Math.log((4 * maxQueries) / beta);
  const split = (2 * threshold - a) / (2 * threshold + a);
  return describe(setting, { sigma, threshold, budget }, { beta, maxQueries, split: split > 0 && split < 1 ? split : null });
}

/**
 * Recommended mode (docs/mechanism.md §2.6): σ and T the planner recommends for this holdout (fewer
 * than 0.1 expected charges of an honest team over m queries, two significant figures) with the
 * organizer's B₀, planned as practical mode on them.
 */
export function planRecommended(setting: Setting, input: { budget: number; beta: number; maxQueries: number }): Plan {
  const { sigma, threshold } = recommendSettings({ gapSd: gapSdOf(setting), queries: input.maxQueries });
  return planPractical(setting, { ...input, sigma, threshold });
}

/** Theorem 2 at these settings: its tolerance τ = A/2 + T when it holds (docs/mechanism.md §2.4). */
function theorem2At(setting: Setting, p: PracticalInput, beta: number, maxQueries: number, split: number | null) {
  if (split === null || !concentrationFor(setting)) return { holds: false, tolerance: null, requiredN: null };
  const tau = 6 * p.sigma * Math.log((4 * maxQueries) / beta) + p.threshold;
  if (tau > 1) return { holds: false, tolerance: null, requiredN: null };
  const g = { tolerance: tau, beta, maxQueries, split };
  const need = requiredN(setting, g, Math.max(1, p.budget));
  const holds = p.budget >= 1 && need !== null && setting.n >= need && p.budget <= maxBudget(setting, g).budget;
  return { holds, tolerance: tau, requiredN: need };
}

/**
 * The competition-wide figure: the count over M teams × m queries with at most H holdout answers, each
 * team's T̂ epochs and comparisons in the union, at β·6/(π²M²) (teamsShare: valid whatever number of
 * teams the competition ends up with). The point at which the cap is reached is a function of this
 * transcript, so it adds nothing here.
 */
function competitionWide(setting: Setting, p: PracticalInput, beta: number, maxQueries: number, perTeamCharges: number): CompetitionWide {
  const teams = Math.max(1, setting.teams ?? DEFAULT_TEAMS);
  const cap = setting.holdoutCap ?? null;
  const concentration = concentrationFor(setting);
  const applies = concentration !== null;
  const at = (h: number) =>
    descriptionLengthBound({
      sensitivity: deltaOf(setting),
      nEff: concentration!.size,
      queries: teams * maxQueries,
      budget: h,
      epochs: teams * (p.budget + 1),
      decimals: answerDecimalsFor(p.sigma),
      sigma: p.sigma,
      threshold: p.threshold,
      beta: beta * teamsShare(teams),
    }).tolerance;
  const curve = applies ? CAPS.map((h) => ({ cap: h, tolerance: at(h) })) : [];
  const tolerance = applies && cap !== null ? at(cap) : null;
  const holds = tolerance !== null && tolerance < MEANINGFUL_TOLERANCE;
  const honestCharges = teams * perTeamCharges;
  const explanation = !applies
    ? "No competition-wide guarantee: no concentration inequality covers this metric under this correlation model."
    : cap === null
      ? `No competition-wide guarantee: without a cap on holdout answers over all teams, one person with many accounts can spend many budgets on the one holdout. Honest teams are expected to spend about ${fmt(honestCharges)} holdout answers in all (${teams} teams).`
      : holds
        ? `For anyone, whatever they read here and however many accounts they hold: every score within ±${fmt(tolerance)} of the truth with probability at least ${fmt(1 - beta)}, for up to ${teams} teams of ${maxQueries} submissions and at most ${cap} holdout answers in all (honest teams are expected to spend about ${fmt(honestCharges)}).`
        : `No competition-wide guarantee at this size: ${cap} holdout answers over ${teams} teams leave a tolerance of ±${fmt(tolerance ?? Infinity)}. A smaller cap or a larger holdout helps.`;
  return { scope: "competition", teams, cap, tolerance, holds, curve, honestCharges, explanation };
}

function describe(setting: Setting, p: PracticalInput, options: { beta: number; maxQueries: number; split: number | null; requested?: number }): Plan {
  const { beta, maxQueries, split, requested } = options;
  const nEff = effectiveSize(setting.model, setting.n);
  const covered = concentrationOf(setting);
  const problem = isCovered(covered) ? null : covered.problem;
  const theorem2 = theorem2At(setting, p, beta, maxQueries, split);
  const count = p.budget >= 1 ? countForTeam(setting, p, beta, maxQueries) : null;
  const countHolds = count !== null && count.tolerance < MEANINGFUL_TOLERANCE && (requested === undefined || count.tolerance <= requested);
  const proof: Proof | null =
    theorem2.holds && (!countHolds || theorem2.tolerance! <= count!.tolerance) ? "bdp" : countHolds ? "description-length" : theorem2.holds ? "bdp" : null;
  const tolerance = proof === "bdp" ? theorem2.tolerance : proof === "description-length" ? count!.tolerance : null;
  const gapSd = gapSdOf(setting);
  const charges = expectedCharges({ sigma: p.sigma, threshold: p.threshold, gapSd, queries: maxQueries });
  const recommended = recommendSettings({ gapSd, queries: maxQueries });
  const explanation =
    proof === null
      ? `No formal guarantee${problem ? `: ${problem}` : p.budget < 1 ? ": the budget is 0, so no team could be checked on the holdout" : ` at these settings: the best bound is ±${fmt(count?.tolerance ?? NaN)}`}.`
      : `For a team acting on its own answers: with probability at least ${fmt(1 - beta)}, every score it is shown is within ±${fmt(tolerance!)} of its true score, for up to ${maxQueries} submissions and ${p.budget} holdout checks (${proof === "bdp" ? "Theorem 2, through Bayesian differential privacy" : "the description-length count"}).`;
  const epsDp = epsDpForBudget(p.budget, p.sigma, deltaOf(setting));
  const concentration = concentrationFor(setting);
  const wide = competitionWide(setting, p, beta, maxQueries, charges);
  const remedies = proof === null || !wide.holds ? remediesFor(setting, p, { beta, maxQueries, recommended, teamHolds: proof !== null, wide }) : [];
  const bounds =
    concentration && p.budget >= 1
      ? boundSettingFor(
          {
            concentration,
            maxQueries,
            decimals: answerDecimalsFor(p.sigma),
            capped: (setting.holdoutCap ?? null) !== null,
            sigma: p.sigma,
            threshold: p.threshold,
            sensitivity: deltaOf(setting),
            beta,
          },
          p.budget,
        )
      : null;
  const forward = p.budget > 0 ? calibrateEpsBdp(setting.model, setting.n, epsDp) : { value: 0, byMethod: {}, exhaustive: true };
  return {
    ...p,
    answerDecimals: answerDecimalsFor(p.sigma),
    epsDp,
    epsBdp: forward.value,
    byMethod: forward.byMethod,
    exhaustive: forward.exhaustive,
    nEff,
    guarantee: {
      holds: proof !== null,
      proof,
      scope: "team",
      tolerance,
      requiredN: theorem2.requiredN,
      beta,
      maxQueries,
      split,
      byProof: {
        bdp: { holds: theorem2.holds, tolerance: theorem2.tolerance },
        descriptionLength: count && {
          holds: countHolds,
          tolerance: count.tolerance,
          deviation: count.deviation,
          publicAnswer: count.publicAnswer,
          holdoutAnswer: count.holdoutAnswer,
        },
      },
      explanation,
    },
    competition: wide,
    honest: { gapSd, expectedCharges: charges, recommended: { sigma: recommended.sigma, threshold: recommended.threshold, expectedCharges: recommended.expectedCharges } },
    scores: bounds && {
      concentration: { size: concentration!.size, inequality: concentration!.inequality },
      split: bounds.split,
      byChecks: promiseByChecks(bounds, p.budget),
    },
    remedies,
  };
}

/** The holdout sizes remediesFor tries, as multiples of today's. */
const GROWTH = [1.5, 2, 3, 5, 10, 20, 50, 100];

/**
 * What would make the guarantees hold (docs/mechanism.md §2.4), each figure computed by the count
 * at a tolerance below MEANINGFUL_TOLERANCE: for a team, the model or the metric where no inequality
 * covers the pair, the recommended settings, a smaller B₀, fewer scored submissions, a larger holdout
 * (the same proportions, the same settings), a mean instead of ROC AUC where ROC AUC counts far fewer
 * rows; for everyone, a cap H on holdout answers over all teams.
 */
function remediesFor(
  setting: Setting,
  p: PracticalInput,
  options: { beta: number; maxQueries: number; recommended: { sigma: number; threshold: number }; teamHolds: boolean; wide: CompetitionWide },
): Remedy[] {
  const { beta, maxQueries, recommended, teamHolds, wide } = options;
  const within = MEANINGFUL_TOLERANCE * (1 - 1e-9);
  const remedies: Remedy[] = [];
  const covered = concentrationOf(setting);
  if (!isCovered(covered)) return [{ change: "model", to: null, text: `Model the holdout rows as ${COVERED_MODELS}: each gives a concentration inequality.` }];
  const holds = (s: Setting, q: PracticalInput, m = maxQueries) => (countForTeam(s, q, beta, m)?.tolerance ?? Infinity) < within;
  if (!teamHolds) {
    const isRecommended = p.sigma === recommended.sigma && p.threshold === recommended.threshold;
    if (!isRecommended && holds(setting, { ...recommended, budget: p.budget }))
      remedies.push({
        change: "settings",
        to: null,
        text: `Use the recommended settings (noise σ = ${fmt(recommended.sigma)}, threshold T = ${fmt(recommended.threshold)}): they give a guarantee at this budget.`,
      });
    const budget = largestCountBudget(setting, p, { beta, maxQueries }, within);
    if (budget >= 1 && budget < p.budget) remedies.push({ change: "budget", to: budget, text: `Give each team at most ${budget} holdout checks (B₀ = ${budget}).` });
    let m = 0;
    for (let lo = 1, hi = maxQueries - 1; lo <= hi;) {
      const mid = Math.floor((lo + hi) / 2);
      if (holds(setting, p, mid)) [m, lo] = [mid, mid + 1];
      else hi = mid - 1;
    }
    if (m >= Math.max(1, p.budget))
      remedies.push({ change: "submissions", to: m, text: `Allow at most ${m} scored submissions per team (a lower daily cap or a shorter competition).` });
    const grown = GROWTH.find((k) => holds(scaled(setting, k), p));
    if (grown !== undefined) {
      const rows = Math.ceil((setting.n * grown) / 1000) * 1000;
      remedies.push({
        change: "holdout",
        to: rows,
        text: `A holdout of about ${rows.toLocaleString("en")} rows (${setting.n.toLocaleString("en")} now), split in the same proportions.`,
      });
    }
    if (
      setting.additive === false &&
      (setting.concentration ?? setting.n) < setting.n / 2 &&
      holds({ ...setting, concentration: setting.n, sensitivity: 1 / setting.n, additive: true }, p)
    ) {
      remedies.push({
        change: "metric",
        to: null,
        text: `A metric that is a mean of per-row values (accuracy, the Brier score, log-loss) counts all ${setting.n.toLocaleString("en")} holdout rows, where ROC AUC counts ${fmt(setting.concentration!)}.`,
      });
    }
  }
  if (!wide.holds) {
    const cap = [...wide.curve].reverse().find((point) => point.tolerance < within);
    if (cap)
      remedies.push({
        change: "cap",
        to: cap.cap,
        text: `For a promise that covers everyone, cap holdout answers over all teams at ${cap.cap} (honest teams are expected to spend about ${fmt(wide.honestCharges)}).`,
      });
  }
  return remedies;
}

/** The setting with a holdout k times as large in the same proportions (k times the rows and groups or chains of today's sizes: every size k times, Δ 1/k times). */
function scaled(setting: Setting, k: number): Setting {
  const times = (x: number | undefined) => (x === undefined ? undefined : x * k);
  return {
    ...setting,
    n: Math.round(setting.n * k),
    concentration: times(setting.concentration),
    publicRows: times(setting.publicRows),
    sensitivity: setting.sensitivity && setting.sensitivity / k,
  };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? Number(x.toPrecision(3)).toString() : "∞";
}
