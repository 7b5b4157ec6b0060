// The experiments (docs/experiments.md), played through the REST API exactly as an outside client
// would: `npm run experiment -- <name>` (scripts/experiment.ts) and their small variants in npm test.
import { DEFAULTS, type ExperimentOptions, runBoosting, runNoSignal } from "./attacks";
import type { ExperimentReport } from "./common";
import { HONEST_AUC, HONEST_DEFAULTS, type HonestOptions, runHonestTeams } from "./honest-teams";
import { LEAK_DEFAULTS, type LeakOptions, runSplitLeak } from "./split-leak";
import { CURSE_DEFAULTS, type CurseOptions, runWinnersCurse } from "./winners-curse";

export { DEFAULTS, HONEST_AUC, type CurseOptions, type ExperimentOptions, type ExperimentReport, type HonestOptions, type LeakOptions };

export const EXPERIMENTS = ["dwork-no-signal", "boosting-attack", "correlated", "winners-curse", "honest-teams", "split-leak"] as const;

/** Runs one named experiment against the app at `base`. */
export async function runExperiment(
  name: string,
  base: string,
  options: ExperimentOptions,
  more: { curse?: Partial<CurseOptions>; honest?: Partial<HonestOptions>; leak?: Partial<LeakOptions> } = {},
): Promise<ExperimentReport[]> {
  switch (name) {
    case "dwork-no-signal":
      return [await runNoSignal(base, options, false, name)];
    case "boosting-attack":
      return [await runBoosting(base, options, false, name)];
    case "correlated":
      return [await runNoSignal(base, options, true, "correlated-no-signal"), await runBoosting(base, options, true, "correlated-boosting")];
    case "winners-curse":
      return [await runWinnersCurse(base, { ...CURSE_DEFAULTS, seed: options.seed, ...more.curse })];
    case "honest-teams":
      return [await runHonestTeams(base, { ...HONEST_DEFAULTS, seed: options.seed, ...more.honest })];
    case "split-leak":
      return [await runSplitLeak(base, { ...LEAK_DEFAULTS, seed: options.seed, ...more.leak })];
    default:
      throw new Error(`unknown experiment "${name}"; choose ${EXPERIMENTS.join(", ")}`);
  }
}
