// npm run experiment -- <dwork-no-signal | boosting-attack | correlated | winners-curse | split-leak>
//   [--n N] [--d D] [--k 10,50,…] [--submissions S] [--stay p] [--eps ε] [--seed s] [--teams T]
//   [--budget B] [--households H] [--verbose true]
// Starts Quiltboard on a throwaway embedded database, plays the experiment through the REST API,
// writes experiments/out/<name>.csv and .svg and prints a summary.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startHarness } from "./harness";
import { type CurseOptions, DEFAULTS, type ExperimentOptions, type LeakOptions, runExperiment } from "./experiments/run";

const [name, ...rest] = process.argv.slice(2);
const options: ExperimentOptions = { ...DEFAULTS };
const curse: Partial<CurseOptions> = {};
const leak: Partial<LeakOptions> = {};
let verbose = false;
for (let i = 0; i < rest.length; i += 2) {
  const [flag, value] = [rest[i], rest[i + 1]];
  if (value === undefined) throw new Error(`${flag} needs a value`);
  if (flag === "--n") options.n = 2 * Math.round(Number(value) / 2);
  else if (flag === "--d") options.d = Number(value);
  else if (flag === "--k") options.ks = value.split(",").map(Number);
  else if (flag === "--submissions") options.submissions = Number(value);
  else if (flag === "--stay") options.stay = Number(value);
  else if (flag === "--eps") options.epsBdp = Number(value);
  else if (flag === "--seed") options.seed = value;
  else if (flag === "--teams") curse.teams = Number(value);
  else if (flag === "--budget") curse.budget = Number(value);
  else if (flag === "--households") leak.households = Number(value);
  else if (flag === "--verbose") verbose = value === "true";
  else throw new Error(`unknown flag ${flag}`);
}
if (name === "boosting-attack" && !rest.includes("--n")) options.n = 4000;

const started = performance.now();
const harness = await startHarness(1, verbose);
try {
  const reports = await runExperiment(name, harness.urls[0], options, curse, leak);
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
