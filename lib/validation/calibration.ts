import { z } from "zod";

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

/** Mechanism settings of docs/mechanism.md §2.4 and docs/api.md (`PUT …/mechanism`). */
export const mechanismSchema = z.discriminatedUnion("mode", [
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
 * and `teams` (default 1,000) and `holdoutCap` the competition-wide figure (docs/mechanism.md §2.7).
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
        : { n: r.n, model: r.model, mechanism: r.mechanism!, publicRows: r.publicRows, teams: r.teams, holdoutCap: r.holdoutCap },
  );

export type CalibrationRequest = z.infer<typeof calibrationRequestSchema>;

/** One line per problem, each naming the field: `model.transition.1: expected number, received string`. */
export function describeZodError(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`);
}
