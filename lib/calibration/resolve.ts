import { check } from "../mechanism/errors";
import { groupsAcrossSplits, holdoutChains, type Solution, type SolutionColumns } from "../csv/solution";
import { describeChain, checkTransitionMatrix, fitTransitionMatrix, longestOf, type ChainSummary } from "./chain";
import { type CorrelationModel, effectiveSize } from "./models";
import type { CorrelationModelInput } from "../validation/calibration";

export type CorrelationSummary = {
  model: CorrelationModel;
  /** holdout rows */
  n: number;
  nEff: number;
  /** groups: how many groups have each size, e.g. {"1": 40, "3": 12} */
  groupSizes?: Record<string, number>;
  /** markov: the chain, its state names (when fitted) and the chains' lengths */
  chain?: ChainSummary & { stateNames: string[] | null; chains: number; longestChain: number };
};

/**
 * Turns the organizer's model as the API takes it (lib/validation/calibration.ts) into a complete model for a holdout of n rows, reading the solution
 * where the input leaves something out: the largest group from the group column, P fitted from the
 * state column (add-α smoothing, transitions within each group's chain only), and the lengths of the
 * independent chains (one per group). Throws a MathInputError naming what is missing.
 */
export function resolveCorrelation(input: CorrelationModelInput, n: number, solution: SolutionColumns | null): CorrelationSummary {
  switch (input.kind) {
    case "independent":
      return { model: input, n, nEff: n };
    case "max-influence": {
      const model: CorrelationModel = { kind: "max-influence", bound: input.bound };
      return { model, n, nEff: effectiveSize(model, n) };
    }
    case "groups": {
      const sizes = solution?.groups ? holdoutChains(solution).map((c) => c.length) : null;
      const largest = sizes && longestOf(sizes);
      const maxGroupSize = input.maxGroupSize ?? largest ?? undefined;
      check(maxGroupSize !== undefined, "groups need maxGroupSize, or a solution with a group column to read it from");
      if (largest !== null) check(maxGroupSize >= largest, `maxGroupSize ${maxGroupSize} is smaller than the largest group in the solution (${largest} holdout rows)`);
      const model: CorrelationModel = { kind: "groups", maxGroupSize };
      const groupSizes: Record<string, number> = {};
      for (const s of sizes ?? []) groupSizes[s] = (groupSizes[s] ?? 0) + 1;
      return { model, n, nEff: effectiveSize(model, n), ...(sizes ? { groupSizes } : {}) };
    }
    case "markov": {
      const chains = solution ? holdoutChains(solution) : null;
      let transition = input.transition;
      let stateNames: string[] | null = null;
      if (input.fit) {
        check(solution?.states != null, "fitting P needs a solution with a state column");
        const states = solution!.states!;
        const fitted = fitTransitionMatrix(
          chains!.map((rows) => rows.map((r) => states.names[states.codes[r]])),
          input.fit.alpha,
        );
        transition = fitted.transition;
        stateNames = fitted.states;
      }
      check(transition !== undefined, "a Markov model needs a transition matrix or fit: {alpha}");
      const lengths = input.chains ?? chains?.map((c) => c.length) ?? [n];
      const model: CorrelationModel = { kind: "markov", transition, initial: input.initial, chains: lengths };
      const summary = describeChain(checkTransitionMatrix(transition));
      return {
        model,
        n,
        nEff: effectiveSize(model, n),
        chain: { ...summary, stateNames, chains: lengths.length, longestChain: longestOf(lengths) },
      };
    }
  }
}

/**
 * Why the solution's split cuts correlated rows under this model, or null (docs/mechanism.md §2.6).
 * Under the groups and Markov models every group (chain) must lie in one split: public scores are
 * released exactly, so public rows would reveal their correlated holdout neighbours. Without a group
 * column a Markov model is one chain over all rows, which always has rows in both splits.
 */
export function splitIntegrityProblem(kind: CorrelationModelInput["kind"], solution: Solution): string | null {
  if (kind !== "groups" && kind !== "markov") return null;
  const crossing = groupsAcrossSplits(solution);
  if (crossing === null) {
    return kind === "markov"
      ? "without a group column all rows form one Markov chain, which has rows in both splits: add a group column that keeps public and holdout rows in different chains"
      : null;
  }
  if (crossing.count === 0) return null;
  const more = crossing.count > crossing.examples.length ? ", …" : "";
  const groups = crossing.count === 1 ? "1 group has" : `${crossing.count} groups have`;
  return `${groups} rows in both the public and the holdout split (${crossing.examples.join(", ")}${more}): public scores are released exactly, so they would reveal those groups' holdout rows. Put every row of a group in the same split.`;
}

/**
 * The model a solution declares (docs/mechanism.md §2.5): a Markov chain fitted from its `state`
 * column (one chain per group), groups read from its `group` column, or none (independent rows).
 * A new solution is modelled this way until the organizer chooses otherwise.
 */
export function declaredModel(solution: Pick<SolutionColumns, "groups" | "states">): CorrelationModelInput | null {
  if (solution.states && solution.groups) return { kind: "markov", fit: { alpha: 1 } };
  if (solution.groups) return { kind: "groups" };
  return null;
}

/** Whether `model` can be resolved against this solution (resolveCorrelation), i.e. it does not need a column the solution lacks. */
export function fitsSolution(model: CorrelationModelInput, solution: Pick<SolutionColumns, "groups" | "states">): boolean {
  if (model.kind === "groups") return model.maxGroupSize !== undefined || solution.groups !== null;
  if (model.kind === "markov") return model.fit === undefined || solution.states !== null;
  return true;
}

/** What a publishing organizer must acknowledge about the model: that it ignores the groups or the states the solution declares. */
export type ModelAcknowledgment = "model_ignores_groups" | "model_ignores_states";

/**
 * The declarations of the solution that `kind` ignores: a group column under a model that treats
 * rows as independent (or bounds their influence), a state column under any model but a Markov chain.
 */
export function ignoredDeclarations(kind: CorrelationModelInput["kind"], solution: Pick<SolutionColumns, "groups" | "states">): ModelAcknowledgment[] {
  const ignored: ModelAcknowledgment[] = [];
  if (solution.groups && kind !== "groups" && kind !== "markov") ignored.push("model_ignores_groups");
  if (solution.states && kind !== "markov") ignored.push("model_ignores_states");
  return ignored;
}
