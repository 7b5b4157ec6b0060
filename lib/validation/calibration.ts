import { z } from "zod";
import "./messages";

/** The largest holdout a calibration may describe, and the most chains it may list. */
const MAX_ROWS = 10_000_000;

/** Correlation models of docs/mechanism.md §3 and docs/api.md (`PUT …/correlation`, `POST /api/v1/calibrate`). */
export const correlationModelSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("independent") }).strict(),
  z.object({ kind: z.literal("groups"), maxGroupSize: z.number().int().min(1).optional() }).strict(),
  z
    .object({
      kind: z.literal("markov"),
      transition: z.array(z.array(z.number()).max(64)).min(2).max(64).optional(),
      initial: z.union([z.literal("stationary"), z.array(z.number()).max(64)]).optional(),
      fit: z.object({ alpha: z.number().positive() }).strict().optional(),
      chains: z.array(z.number().int().min(1)).min(1).max(MAX_ROWS).optional(),
    })
    .strict(),
  z.object({ kind: z.literal("max-influence"), bound: z.number().min(0) }).strict(),
]);

export type CorrelationModelInput = z.infer<typeof correlationModelSchema>;

/** PUT …/correlation's body. */
export const correlationRequestSchema = z.object({ model: correlationModelSchema });
export type CorrelationRequest = z.infer<typeof correlationRequestSchema>;

/** The budget a new competition starts with: 20 holdout checks per team. */
export const DEFAULT_BUDGET = 20;

/**
 * Mechanism settings of docs/mechanism.md §2.4 and docs/api.md (`PUT …/mechanism`): "recommended"
 * (σ and T the planner recommends for the holdout, with B₀; a new competition's default),
 * "guarantee" (τ and β: the largest budget that keeps them) or "practical" (σ, T and B₀ as given).
 */
export const mechanismSchema = z.discriminatedUnion("mode", [
  z
    .object({
      mode: z.literal("recommended"),
      budget: z.number().int().min(1).default(DEFAULT_BUDGET),
      beta: z.number().gt(0).lt(1).optional(),
      maxQueries: z.number().int().min(1).optional(),
    })
    .strict(),
  z
    .object({
      mode: z.literal("guarantee"),
      tolerance: z.number().gt(0).max(1),
      beta: z.number().gt(0).lt(1),
      maxQueries: z.number().int().min(1).optional(),
      split: z.number().gt(0).lt(1).optional(),
    })
    .strict(),
  z
    .object({
      mode: z.literal("practical"),
      sigma: z.number().positive(),
      threshold: z.number().positive().max(1),
      budget: z.number().int().min(1),
      beta: z.number().gt(0).lt(1).optional(),
      maxQueries: z.number().int().min(1).optional(),
    })
    .strict(),
]);

export type MechanismInput = z.infer<typeof mechanismSchema>;

/**
 * `POST /api/v1/calibrate` and `npm run calibrate -- spec.json`: exactly one of epsBdp, epsDp,
 * mechanism. With a mechanism, `publicRows` (default n) sizes an honest team's public − holdout gap,
 * `teams` (default 1,000) and `holdoutCap` the competition-wide figure (docs/mechanism.md §2.7), and
 * `metric` says whether the plan is for a mean of per-row values (the default) or for ROC AUC with
 * `positives` of the n holdout rows positive (its Δ and N, docs/mechanism.md §4, §2.5).
 */
export const calibrationRequestSchema = z
  .object({
    n: z
      .number()
      .int()
      .min(1)
      .max(MAX_ROWS, { message: `at most ${MAX_ROWS.toLocaleString("en")} rows (ten times the largest holdout Quiltboard serves)` }),
    publicRows: z.number().int().min(1).max(MAX_ROWS).optional(),
    teams: z.number().int().min(1).max(1_000_000).optional(),
    holdoutCap: z.number().int().min(1).max(10_000_000).optional(),
    model: correlationModelSchema,
    /** the metric the plan is for: a mean of per-row values unless ROC AUC, which needs the holdout's positive rows */
    metric: z
      .discriminatedUnion("name", [z.object({ name: z.literal("mean") }).strict(), z.object({ name: z.literal("roc-auc"), positives: z.number().int().min(1) }).strict()])
      .optional(),
    epsBdp: z.number().positive().optional(),
    epsDp: z.number().positive().optional(),
    mechanism: mechanismSchema.optional(),
  })
  .strict()
  .refine((r) => [r.epsBdp, r.epsDp, r.mechanism].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of epsBdp, epsDp or mechanism",
  })
  .transform((r) =>
    r.epsBdp !== undefined
      ? { n: r.n, model: r.model, epsBdp: r.epsBdp }
      : r.epsDp !== undefined
        ? { n: r.n, model: r.model, epsDp: r.epsDp }
        : { n: r.n, model: r.model, mechanism: r.mechanism!, publicRows: r.publicRows, teams: r.teams, holdoutCap: r.holdoutCap, metric: r.metric },
  )
  .refine((r) => !("metric" in r) || r.metric?.name !== "roc-auc" || r.metric.positives < r.n, { message: "metric.positives must leave at least one negative row (fewer than n)" });

export type CalibrationRequest = z.infer<typeof calibrationRequestSchema>;

/** One line per problem, each naming the field: `model.transition.1: expected a number, got "a"`. */
export function describeZodError(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`);
}
