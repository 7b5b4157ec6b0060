// The experiments, played through the REST API exactly as an outside client would.
import { randomBytes, randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { boostingAttack, type LeaderboardOracle } from "@/lib/experiments/boosting";
import { signAccuracy, randomLabels } from "@/lib/experiments/data";
import { noSignalExperiment } from "@/lib/experiments/no-signal";
import { linePlotSvg, type Series } from "@/lib/experiments/svg";
import { client, newApiUser, newCompetitor, publishOverApi } from "../../test/support/api";

export type ExperimentOptions = { n: number; d: number; ks: number[]; submissions: number; stay: number; epsBdp: number; sigma: number; threshold: number; seed: string };

export const DEFAULTS: ExperimentOptions = {
  n: 10_000,
  d: 10_000,
  ks: [10, 50, 100, 200, 300, 400, 500],
  submissions: 400,
  stay: 0.9,
  epsBdp: 10,
  sigma: 0.0025,
  threshold: 0.04,
  seed: "quiltboard",
};

type Variant = { key: "plain" | "independent" | "bdp"; label: string; color: string; budget: number | null; leaderboard: LeaderboardOracle };
export type ExperimentReport = { name: string; csv: string; svgs: { file: string; svg: string }[]; summary: string[]; budgets: Record<string, number | null> };

const COLORS = { plain: "#dc2626", independent: "#d97706", bdp: "#4f46e5", fresh: "#059669" };

/**
 * One leaderboard per mechanism variant on a fresh competition: the organizer uploads a solution of
 * `rows` rows (first half public, second half holdout) with the given labels, sets the correlation
 * model and a practical mechanism (σ, T) whose budget is calibrated to the same ε_BDP target: as if
 * rows were independent, or under the Markov model (Zhao 2017's BDP calibration via the calibrate
 * API). The plain leaderboard is the exact holdout accuracy, what other platforms show.
 */
async function leaderboards(base: string, labels: Int8Array, options: ExperimentOptions, correlated: boolean): Promise<Variant[]> {
  const rows = labels.length;
  const holdout = rows / 2;
  const organizer = await newApiUser(base, "organizer");
  const anyone = client(base);
  const markov = {
    kind: "markov",
    transition: [
      [options.stay, 1 - options.stay],
      [1 - options.stay, options.stay],
    ],
  };
  const perAnswer = (
    await anyone("/api/v1/calibrate", {
      json: { n: holdout, model: { kind: "independent" }, mechanism: { mode: "practical", sigma: options.sigma, threshold: options.threshold, budget: 1 } },
    })
  ).epsDp as number;
  const epsDpFor = async (model: object) => (await anyone("/api/v1/calibrate", { json: { n: holdout, model, epsBdp: options.epsBdp } })).epsDp as number;
  const holdoutRows = Uint32Array.from({ length: holdout }, (_, i) => holdout + i);
  // The group column keeps the public rows and the holdout rows in separate chains (a split must not cut a chain).
  const solution = [
    "id,label,split,order,group",
    ...Array.from(labels, (y, i) => `r${i},${y},${i < holdout ? "public" : "holdout"},${i},${i < holdout ? "public" : "holdout"}`),
  ].join("\n");

  const make = async (key: "independent" | "bdp", label: string, model: object): Promise<Variant> => {
    const budget = Math.max(1, Math.floor((await epsDpFor(model)) / perAnswer));
    const { slug } = await publishOverApi(base, {
      organizer,
      settings: { slug: `exp-${key}-${randomBytes(4).toString("hex")}`, title: label, dailySubmissionLimit: 1000 },
      solution,
      correlation: model as Record<string, unknown>,
      mechanism: { mode: "practical", sigma: options.sigma, threshold: options.threshold, budget },
    });
    const analyst = (await newCompetitor(base, slug, "Analyst")).call;
    const leaderboard: LeaderboardOracle = async (predictions) => {
      const csv = ["id,prediction", ...Array.from(predictions, (p, i) => `r${i},${p}`)].join("\n");
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv, headers: { "idempotency-key": randomUUID() } });
      return answer.answer.kind === "exhausted" ? null : answer.answer.score;
    };
    return { key, label: `${label} (B = ${budget})`, color: COLORS[key], budget, leaderboard };
  };

  return [
    { key: "plain", label: "Plain holdout (exact scores)", color: COLORS.plain, budget: null, leaderboard: async (p) => signAccuracy(p, labels, holdoutRows) },
    await make("independent", "Thresholdout, calibrated as if independent", { kind: "independent" }),
    await make("bdp", correlated ? "Thresholdout, BDP-calibrated (Markov)" : "Thresholdout, BDP-calibrated", correlated ? markov : { kind: "independent" }),
  ];
}

const f = (x: number | null) => (x === null ? "" : x.toFixed(4));

async function runNoSignal(base: string, options: ExperimentOptions, correlated: boolean, name: string): Promise<ExperimentReport> {
  const labels = randomLabels(2 * options.n, seedrandom(`${options.seed}:labels`), correlated ? options.stay : undefined);
  const variants = await leaderboards(base, labels, options, correlated);
  const results: { v: Variant; rows: Awaited<ReturnType<typeof noSignalExperiment>>["rows"] }[] = [];
  for (const v of variants) {
    const r = await noSignalExperiment({ n: options.n, d: options.d, ks: options.ks, seed: options.seed, stay: correlated ? options.stay : undefined, leaderboard: v.leaderboard });
    results.push({ v, rows: r.rows });
  }
  const csv =
    [
      "leaderboard,k,selected,training,reported,fresh",
      ...results.flatMap(({ v, rows }) => rows.map((r) => [v.key, r.k, r.selected, f(r.training), f(r.reported), f(r.fresh)].join(","))),
    ].join("\n") + "\n";
  const series: Series[] = results.map(({ v, rows }) => ({ label: v.label, color: v.color, points: rows.map((r) => ({ x: r.k, y: r.reported })) }));
  series.push({ label: "Fresh data (truth)", color: COLORS.fresh, dashed: true, points: results[0].rows.map((r) => ({ x: r.k, y: r.fresh })) });
  const svg = linePlotSvg({
    title: `No-signal data: reported vs fresh accuracy (n = d = ${options.n === options.d ? options.n : `${options.n}, d = ${options.d}`}${correlated ? `, Markov labels p = ${options.stay}` : ""})`,
    xLabel: "variables selected k",
    yLabel: "accuracy",
    series,
    yRange: [0.4, 0.75],
  });
  const last = (key: string) => results.find((r) => r.v.key === key)!.rows.at(-1)!;
  const summary = [
    `k = ${options.ks.at(-1)}: fresh accuracy ${f(last("plain").fresh)} (no classifier beats 0.5 on new data)`,
    ...results.map(({ v }) => `  ${v.label.padEnd(58)} reports ${f(last(v.key).reported) || "⊥ (budget spent)"}`),
  ];
  return { name, csv, svgs: [{ file: `${name}.svg`, svg }], summary, budgets: Object.fromEntries(variants.map((v) => [v.key, v.budget])) };
}

async function runBoosting(base: string, options: ExperimentOptions, correlated: boolean, name: string): Promise<ExperimentReport> {
  const rows = 2 * options.n;
  const labels = randomLabels(rows, seedrandom(`${options.seed}:boost-labels`), correlated ? options.stay : undefined);
  const fresh = randomLabels(rows, seedrandom(`${options.seed}:boost-fresh`), correlated ? options.stay : undefined);
  const variants = await leaderboards(base, labels, options, correlated);
  const checkpoints = new Set(Array.from({ length: 8 }, (_, i) => Math.round(((i + 1) * options.submissions) / 8)));
  const csvRows: string[] = ["leaderboard,submissions,reported,fresh"];
  const series: Series[] = [];
  const summary: string[] = [];
  for (const v of variants) {
    // Re-run the attack prefix by prefix: the majority of the probes kept after s submissions.
    const rng = seedrandom(`${options.seed}:probes`);
    const probes: Int8Array[] = [];
    const kept: boolean[] = [];
    const points: { x: number; y: number | null }[] = [];
    let last = { reported: null as number | null, fresh: 0.5 };
    const result = await boostingAttack({
      rows,
      submissions: options.submissions,
      rng,
      leaderboard: async (p) => {
        const answer = await v.leaderboard(p);
        if (probes.length < options.submissions) {
          probes.push(p);
          kept.push(answer !== null && answer > 0.5);
        }
        return answer;
      },
    });
    for (const s of checkpoints) {
      const votes = new Int32Array(rows);
      probes.slice(0, s).forEach((p, i) => kept[i] && p.forEach((x, r) => (votes[r] += x)));
      const vote = Int8Array.from(votes, (x) => (x >= 0 ? 1 : -1));
      const reported = s === options.submissions ? result.reported : await v.leaderboard(vote);
      last = { reported, fresh: signAccuracy(vote, fresh) };
      points.push({ x: s, y: reported });
      csvRows.push([v.key, s, f(reported), f(last.fresh)].join(","));
    }
    series.push({ label: v.label, color: v.color, points });
    summary.push(`  ${v.label.padEnd(58)} reports ${f(last.reported) || "⊥ (budget spent)"} for the majority vote; fresh ${f(last.fresh)}`);
  }
  series.push({ label: "Fresh labels (truth)", color: COLORS.fresh, dashed: true, points: [...checkpoints].map((s) => ({ x: s, y: 0.5 })) });
  const svg = linePlotSvg({
    title: `Boosting attack: reported accuracy of the majority vote (${options.n} holdout rows${correlated ? `, Markov p = ${options.stay}` : ""})`,
    xLabel: "random submissions",
    yLabel: "accuracy",
    series,
    yRange: [0.4, 0.75],
  });
  return {
    name,
    csv: csvRows.join("\n") + "\n",
    svgs: [{ file: `${name}.svg`, svg }],
    summary: [`after ${options.submissions} submissions (truth: 0.5)`, ...summary],
    budgets: Object.fromEntries(variants.map((v) => [v.key, v.budget])),
  };
}

export type CurseOptions = { teams: number; rows: number; budget: number; sigma: number; threshold: number; copied: number; seed: string };

/** The demo's settings (σ = 0.01, T = 0.04, B₀ = 20) with 100 teams of equal true quality. */
export const CURSE_DEFAULTS: CurseOptions = { teams: 100, rows: 4000, budget: 20, sigma: 0.01, threshold: 0.04, copied: 0.1, seed: "quiltboard" };

/** A published competition of ±1 labels: the organizer's solution, through the REST API. */
async function publishCompetition(base: string, options: { title: string; solution: string; model: Record<string, unknown>; mechanism: Record<string, unknown>; daily: number }) {
  const settings = { slug: `exp-${randomBytes(4).toString("hex")}`, title: options.title, dailySubmissionLimit: options.daily };
  return (await publishOverApi(base, { settings, solution: options.solution, correlation: options.model, mechanism: options.mechanism })).slug;
}

/**
 * The winner's curse (docs/mechanism.md §2.6): many teams whose every submission is worth exactly 0.5
 * on new data (random predictions for the holdout rows, a fraction of the public labels copied), each
 * submitting until its budget is spent. "Best answer" is what a leaderboard of best released answers
 * shows (each team sees its own answers, so the client computes it); "shown" is what Quiltboard's
 * leaderboard shows, the fresh re-measurement of that best. Truth: 0.5.
 */
async function runWinnersCurse(base: string, options: CurseOptions): Promise<ExperimentReport> {
  const rows = options.rows;
  const labels = randomLabels(rows, seedrandom(`${options.seed}:curse-labels`));
  const solution = ["id,label,split", ...Array.from(labels, (y, i) => `r${i},${y},${i % 2 ? "public" : "holdout"}`)].join("\n");
  const slug = await publishCompetition(base, {
    title: "Winner's curse",
    solution,
    model: { kind: "independent" },
    mechanism: { mode: "practical", sigma: options.sigma, threshold: options.threshold, budget: options.budget },
    daily: 1000,
  });
  const rng = seedrandom(`${options.seed}:curse-predictions`);
  const best: number[] = [];
  const submissions: number[] = [];
  const names: string[] = [];
  for (let t = 0; t < options.teams; t++) {
    const name = `Team ${String(t + 1).padStart(3, "0")}`;
    names.push(name);
    const analyst = (await newCompetitor(base, slug, name)).call;
    let top = -Infinity;
    let count = 0;
    for (let remaining = options.budget; remaining > 0 && count < 20 * options.budget; count++) {
      const csv = ["id,prediction", ...Array.from(labels, (y, i) => `r${i},${i % 2 && rng() < options.copied ? y : rng() < 0.5 ? 1 : -1}`)].join("\n");
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv, headers: { "idempotency-key": randomUUID() } });
      remaining = answer.budget.remaining;
      if (answer.answer.score !== null) top = Math.max(top, answer.answer.score);
    }
    best.push(top);
    submissions.push(count);
  }
  const board = await client(base)(`/api/v1/competitions/${slug}/leaderboard`);
  const shownOf = new Map<string, { score: number; uncertainty: number }>(board.entries.map((e: { team: string; score: number; uncertainty: number }) => [e.team, e]));
  const shown = names.map((n) => shownOf.get(n)!.score);
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const top = board.entries[0];
  const topBest = best[names.indexOf(top.team)];
  const uncertainty = top.uncertainty as number;
  const csv =
    ["team,submissions,best_answer,shown,uncertainty,truth", ...names.map((n, i) => [n, submissions[i], f(best[i]), f(shown[i]), f(uncertainty), "0.5"].join(","))].join("\n") +
    "\n";
  const order = names.map((_, i) => i).sort((a, b) => best[b] - best[a]);
  const series: Series[] = [
    { label: "Best released answer (old display)", color: COLORS.plain, points: order.map((i, k) => ({ x: k + 1, y: best[i] })) },
    { label: "Shown: fresh re-measurement", color: COLORS.bdp, points: order.map((i, k) => ({ x: k + 1, y: shown[i] })) },
    {
      label: "Truth on new data",
      color: COLORS.fresh,
      dashed: true,
      points: [
        { x: 1, y: 0.5 },
        { x: names.length, y: 0.5 },
      ],
    },
  ];
  const svg = linePlotSvg({
    title: `Winner's curse: ${options.teams} teams of true accuracy 0.5 (σ = ${options.sigma}, T = ${options.threshold}, B₀ = ${options.budget})`,
    xLabel: "teams, by best released answer",
    yLabel: "accuracy",
    series,
    yRange: [0.3, 0.9],
  });
  const summary = [
    `${options.teams} teams, ${mean(submissions).toFixed(1)} submissions each until a budget of ${options.budget} was spent; truth 0.5 on new data; shown scores carry ±${f(uncertainty)} (95 %)`,
    `  mean (best released answer − truth): ${(mean(best) - 0.5).toFixed(4)}   (what a board of best answers would show)`,
    `  mean (shown − truth):                ${(mean(shown) - 0.5).toFixed(4)}   (Quiltboard's board; standard error ${((Math.sqrt(2) * 4 * options.sigma) / Math.sqrt(options.teams)).toFixed(4)})`,
    `  top team on Quiltboard's board: shown ${f(top.score)} (bias ${(top.score - 0.5).toFixed(4)}), its best answer ${f(topBest)} (bias ${(topBest - 0.5).toFixed(4)})`,
    `  top of the best-answer board: ${f(Math.max(...best))} (bias ${(Math.max(...best) - 0.5).toFixed(4)})`,
  ];
  return { name: "winners-curse", csv, svgs: [{ file: "winners-curse.svg", svg }], summary, budgets: { bdp: options.budget } };
}

export type LeakOptions = { households: number; hours: number; stay: number; seed: string };
export const LEAK_DEFAULTS: LeakOptions = { households: 200, hours: 24, stay: 0.9, seed: "quiltboard" };

/**
 * Splits that cut correlated rows (docs/mechanism.md §2.6): households of hourly ±1 labels that
 * follow a sticky chain. The analyst knows the public rows' labels (the worst case of what exact
 * public scores reveal) and predicts every row by its nearest other public row in the same
 * household, a coin flip where there is none; on new households it can only guess (truth 0.5).
 * A split that cuts households (accepted under the independent model) lets the public neighbours
 * predict holdout rows: the leaderboard reports the leak and no budget is spent. A split by
 * household (the groups model) leaves the holdout untouched: the gap shows and the holdout answers.
 */
async function runSplitLeak(base: string, options: LeakOptions): Promise<ExperimentReport> {
  const { households, hours } = options;
  const labels = randomLabels(households * hours, seedrandom(`${options.seed}:leak-labels`), options.stay);
  // Restart the chain at each household so households are independent.
  const restart = seedrandom(`${options.seed}:leak-starts`);
  for (let h = 0; h < households; h++) if (restart() < 0.5) for (let t = 0; t < hours; t++) labels[h * hours + t] *= -1;
  const splitRng = seedrandom(`${options.seed}:leak-split`);
  const cutSplit = Array.from({ length: households * hours }, () => (splitRng() < 0.5 ? 1 : 0));
  const groupSplit = Array.from({ length: households * hours }, (_, i) => Math.floor(i / hours) % 2);
  const results: { key: string; label: string; kind: string; reported: number | null; holdoutAccuracy: number; budget: number }[] = [];
  for (const [key, label, split, model] of [
    ["cut", "Rows split at random (independent model)", cutSplit, { kind: "independent" }],
    ["group", "Households split whole (groups model)", groupSplit, { kind: "groups" }],
  ] as const) {
    const solution = ["id,label,split,order,group", ...Array.from(labels, (y, i) => `r${i},${y},${split[i] ? "holdout" : "public"},${i % hours},h${Math.floor(i / hours)}`)].join(
      "\n",
    );
    const slug = await publishCompetition(base, { title: label, solution, model, mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 }, daily: 100 });
    const guess = seedrandom(`${options.seed}:leak-guess`);
    const predictions = Array.from(labels, (_, i) => {
      const h = Math.floor(i / hours);
      for (let d = 1; d < hours; d++) for (const j of [i - d, i + d]) if (j >= h * hours && j < (h + 1) * hours && !split[j]) return labels[j];
      return guess() < 0.5 ? 1 : -1;
    });
    const analyst = (await newCompetitor(base, slug, "Neighbours")).call;
    const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, {
      csv: ["id,prediction", ...predictions.map((p, i) => `r${i},${p}`)].join("\n"),
      headers: { "idempotency-key": randomUUID() },
    });
    const holdoutRows = Uint32Array.from(split.flatMap((s, i) => (s ? [i] : [])));
    results.push({
      key,
      label,
      kind: answer.answer.kind,
      reported: answer.answer.score,
      holdoutAccuracy: signAccuracy(Int8Array.from(predictions), labels, holdoutRows),
      budget: answer.budget.remaining,
    });
  }
  const csv =
    [
      "split,answer_kind,reported,holdout_accuracy,budget_remaining,truth",
      ...results.map((r) => [r.key, r.kind, f(r.reported), f(r.holdoutAccuracy), r.budget, "0.5"].join(",")),
    ].join("\n") + "\n";
  const summary = [
    `${households} households × ${hours} hours, labels a sticky chain (P[stay] = ${options.stay}); predictions from public neighbours; truth on new households 0.5`,
    ...results.map((r) => `  ${r.label.padEnd(44)} ${r.kind} answer ${f(r.reported)} (holdout accuracy ${f(r.holdoutAccuracy)}), budget left ${r.budget}`),
  ];
  return { name: "split-leak", csv, svgs: [], summary, budgets: {} };
}

/** Runs one named experiment against the app at `base`. */
export async function runExperiment(
  name: string,
  base: string,
  options: ExperimentOptions,
  curse: Partial<CurseOptions> = {},
  leak: Partial<LeakOptions> = {},
): Promise<ExperimentReport[]> {
  switch (name) {
    case "dwork-no-signal":
      return [await runNoSignal(base, options, false, name)];
    case "boosting-attack":
      return [await runBoosting(base, options, false, name)];
    case "correlated":
      return [await runNoSignal(base, options, true, "correlated-no-signal"), await runBoosting(base, options, true, "correlated-boosting")];
    case "winners-curse":
      return [await runWinnersCurse(base, { ...CURSE_DEFAULTS, ...curse, seed: options.seed })];
    case "split-leak":
      return [await runSplitLeak(base, { ...LEAK_DEFAULTS, ...leak, seed: options.seed })];
    default:
      throw new Error(`unknown experiment "${name}"; choose dwork-no-signal, boosting-attack, correlated, winners-curse or split-leak`);
  }
}
