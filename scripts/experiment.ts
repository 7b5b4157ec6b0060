// npm run experiment -- <dwork-no-signal | boosting-attack | correlated | winners-curse | honest-teams | split-leak>
//   [--n N] [--d D] [--k 10,50,…] [--submissions S] [--stay p] [--eps ε] [--seed s] [--teams T]
//   [--budget B] [--settings recommended|dwork] [--metric accuracy|roc-auc] [--households H] [--verbose]
// Starts Quiltboard on a throwaway embedded database, plays the experiment through the REST API,
// writes experiments/out/<name>.csv and .svg and prints a summary. For winners-curse and
// honest-teams, --submissions is per team and --n the holdout rows; honest-teams --metric roc-auc
// ranks teams by ROC AUC instead of accuracy.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startHarness } from "./harness";
import { type CurseOptions, DEFAULTS, EXPERIMENTS, type ExperimentOptions, HONEST_AUC, type HonestOptions, runExperiment } from "./experiments/run";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: "string" },
    d: { type: "string" },
    k: { type: "string" },
    submissions: { type: "string" },
    stay: { type: "string" },
    eps: { type: "string" },
    seed: { type: "string" },
    teams: { type: "string" },
    budget: { type: "string" },
    settings: { type: "string" },
    metric: { type: "string" },
    households: { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});
const name = positionals[0];
if (!(EXPERIMENTS as readonly string[]).includes(name)) throw new Error(`choose an experiment: ${EXPERIMENTS.join(", ")}`);
const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
const options: ExperimentOptions = {
  ...DEFAULTS,
  ...defined({
    n: values.n === undefined ? undefined : 2 * Math.round(Number(values.n) / 2),
    d: number(values.d),
    stay: number(values.stay),
    epsBdp: number(values.eps),
    seed: values.seed,
  }),
  ...(values.k ? { ks: values.k.split(",").map(Number) } : {}),
  ...(values.submissions && !["winners-curse", "honest-teams"].includes(name) ? { submissions: Number(values.submissions) } : {}),
};
if (name === "boosting-attack" && values.n === undefined) options.n = 4000;
const settings = values.settings as "recommended" | "dwork" | undefined;
if (settings !== undefined && settings !== "recommended" && settings !== "dwork") throw new Error(`--settings is recommended or dwork, got ${settings}`);
const perTeam = { teams: number(values.teams), budget: number(values.budget), submissions: number(values.submissions), settings };
const metric = values.metric as "accuracy" | "roc-auc" | undefined;
if (metric !== undefined && metric !== "accuracy" && metric !== "roc-auc") throw new Error(`--metric is accuracy or roc-auc, got ${metric}`);
const more = {
  curse: defined<Partial<CurseOptions>>(perTeam),
  honest: defined<Partial<HonestOptions>>({ ...perTeam, n: number(values.n), metric, ...(metric === "roc-auc" ? { low: HONEST_AUC.low, high: HONEST_AUC.high } : {}) }),
  leak: defined({ households: number(values.households) }),
};

const started = performance.now();
const harness = await startHarness(1, values.verbose);
try {
  const reports = await runExperiment(name, harness.urls[0], options, more);
  const out = path.resolve("experiments/out");
  mkdirSync(out, { recursive: true });
  for (const report of reports) {
    writeFileSync(path.join(out, `${report.name}.csv`), report.csv);
    for (const { file, svg } of report.svgs) writeFileSync(path.join(out, file), svg);
    console.log(
      `\n# ${report.name}  (budgets: ${Object.entries(report.budgets)
        .map(([k, b]) => `${k} ${b ?? "—"}`)
        .join(", ")})`,
    );
    for (const line of report.summary) console.log(line);
    console.log(`wrote ${[`${report.name}.csv`, ...report.svgs.map((x) => x.file)].map((f) => `experiments/out/${f}`).join(", ")}`);
  }
  console.log(`\ntook ${((performance.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await harness.stop();
}
