// The JSON bodies the REST API answers with (docs/api.md), as zod schemas: each type below is its
// schema's inferred type, built by lib/server and read by pages and client components, and the
// schemas are the responses of the OpenAPI document (lib/openapi.ts) that the end-to-end tests hold
// every answer to. Client components import the types only (`import type`), so no schema and no
// server code reaches the browser bundle.
//
// Some answers carry what a pure module computes (a plan, a calibration, a chain's summary): those
// types are defined beside their code (lib/calibration, lib/experiments), and test/unit/openapi.test.ts
// holds each schema here to describe exactly the same values.
import { z } from "zod";
import { accessSchema, acknowledgmentCodeSchema } from "./validation/competitions";
import { correlationModelSchema } from "./validation/calibration";

/** An instant, as the API writes every one: ISO 8601 in UTC, e.g. 2026-11-24T10:00:00.000Z. */
const instant = z.iso.datetime();
const count = z.number().int().min(0);

/** One thing publishing needs: whether it is in place, and what it is (when it is) or what to do. */
const publishCheckSchema = z.object({ item: z.enum(["deadline", "solution", "correlation", "mechanism"]), ok: z.boolean(), detail: z.string() });
export type PublishCheck = z.infer<typeof publishCheckSchema>;

/**
 * Every error code the API answers, with its HTTP status: the one list the server's AppError, the
 * error body's schema and the OpenAPI document (each error status with its codes) are built from,
 * and that docs/api.md names (test/unit/openapi.test.ts holds it there).
 */
export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  email_unverified: 403,
  domain_not_allowed: 403,
  approval_required: 403,
  identity_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  acknowledgment_required: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  unprocessable_entity: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  insufficient_storage: 507,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error answer: a code, a message a user can act on, and details (a CSV's problems with their lines, a JSON body's with their fields, a wait, or an unfinished publish checklist). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z
        .union([
          z.array(z.union([z.object({ line: z.number().int(), message: z.string() }), z.object({ path: z.string(), message: z.string() })])),
          z.object({ retryAfter: z.number().int() }),
          z.array(publishCheckSchema),
          z.array(acknowledgmentCodeSchema),
        ])
        .optional(),
    }),
  })
  .meta({ id: "Error" });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A body that only confirms what was done, e.g. `{deleted: true}`. */
export const doneSchema = (field: string) => z.object({ [field]: z.literal(true) });

// Accounts

export const userSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string(), role: z.enum(["admin", "user"]) }).meta({ id: "User" });
/** An account: who the caller is (every service takes one). */
export type User = z.infer<typeof userSchema>;

export const meSchema = userSchema.extend({ emailVerified: z.boolean() }).meta({ id: "Me" });
export type Me = z.infer<typeof meSchema>;

/** POST /api/v1/tokens: the token, shown this once. */
export const tokenCreatedSchema = z.object({ id: z.uuid(), name: z.string(), token: z.string() });

// Competitions

const metricSummarySchema = z.object({ name: z.string(), title: z.string(), direction: z.enum(["higher", "lower"]) });

export const competitionListItemSchema = z.object({
  slug: z.string(),
  title: z.string(),
  status: z.enum(["draft", "published", "closed"]),
  metric: z.string(),
  /** when teams may start to form (null: from publishing) */
  startsAt: instant.nullable(),
  endsAt: instant,
  /** when it closed (null while open): the deadline may have been edited after the close */
  closedAt: instant.nullable(),
  teams: count,
});
export type CompetitionListItem = z.infer<typeof competitionListItemSchema>;

/** GET /api/v1/competitions: one page of the competitions that match, and how many match in all. */
export const competitionListSchema = z.object({ competitions: z.array(competitionListItemSchema), total: count, page: z.number().int(), pageSize: z.number().int() });

/** What anyone who may see a competition may read (GET …/competitions/{slug}; the answer to a create, an edit, a publish, a close). */
export const competitionDetailsSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    rules: z.string(),
    status: z.enum(["draft", "published", "closed"]),
    metric: metricSummarySchema.extend({ params: z.object({ pMin: z.number().optional(), lo: z.number().optional(), hi: z.number().optional() }) }),
    startsAt: instant.nullable(),
    endsAt: instant,
    dailySubmissionLimit: z.number().int(),
    maxTeamSize: z.number().int(),
    displayPrecision: z.number().int(),
    publishedAt: instant.nullable(),
    closedAt: instant.nullable(),
    /** σ, T, B₀ and m once published (T̂, the noisy threshold, is never shown) */
    mechanism: z.object({ sigma: z.number().nullable(), threshold: z.number().nullable(), budget: z.number().int(), maxQueries: z.number().int().nullable() }).nullable(),
    /** holdout answers released over all teams, and the organizers' cap on them */
    holdout: z.object({ answersReleased: count, cap: z.number().int().nullable() }),
    /**
     * what publishing fixed (docs/mechanism.md §2.10), lower-case hex: SHA-256 of the solution file's
     * exact bytes, and of the mechanism's secret followed by the settings its answers are drawn with;
     * null for a draft
     */
    commitment: z.object({ solution: z.string(), secret: z.string(), publishedAt: instant }).nullable(),
    /** when the organizers revealed the solution, the secret and every answer (GET …/reveal), null until then */
    revealedAt: instant.nullable(),
    access: accessSchema,
    lateSubmissions: z.boolean(),
  })
  .meta({ id: "Competition" });
export type CompetitionDetails = z.infer<typeof competitionDetailsSchema>;

/**
 * GET …/competitions/{slug} `guarantee`: what the shown scores are worth, display units
 * (docs/mechanism.md §2.6, §2.7). `team` covers a team acting on its own answers (the tighter of the
 * two proofs); `competition` covers anyone, whatever they read here and however many accounts they
 * hold (null tolerance: no competition-wide guarantee); `publicBound` is how far above its holdout
 * value a shown public score can be (T plus the threshold's noise, 95 %); `honestCharges` the holdout
 * checks an honest team is expected to get over its m submissions.
 */
export const guaranteeSummarySchema = z.object({
  team: z.object({
    holds: z.boolean(),
    proof: z.enum(["bdp", "description-length"]).nullable(),
    tolerance: z.number().nullable(),
    maxQueries: z.number().int(),
    budget: z.number().int(),
    beta: z.number(),
    /** the promise by holdout checks used (0, 1, 5, B₀): every score a team is shown after that many checks is within `bound` of its true score (docs/mechanism.md §2.8) */
    byChecks: z.array(z.object({ checks: count, bound: z.number() })),
  }),
  competition: z.object({ holds: z.boolean(), tolerance: z.number().nullable(), cap: z.number().int().nullable(), teams: z.number().int(), answersReleased: count }),
  publicBound: z.number(),
  honestCharges: z.number(),
});
export type GuaranteeSummary = z.infer<typeof guaranteeSummarySchema>;

/** One changed setting, as the change log records it (dates as ISO strings). */
export const settingChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type SettingChange = z.infer<typeof settingChangeSchema>;

/** The figures of a plan that a settings change may move. */
export const planFiguresSchema = z.object({
  sigma: z.number(),
  threshold: z.number(),
  budget: z.number().int(),
  maxQueries: z.number().int(),
  tolerance: z.number().nullable(),
  holds: z.boolean(),
  explanation: z.string(),
});
export type PlanFigures = z.infer<typeof planFiguresSchema>;

/** What the mechanism is after a change that moves m (docs/operating.md "Editing a live competition"); `replanned`: σ, T and B₀ are recomputed (no team has submitted yet), else only m and the guarantee move. */
export const planShiftSchema = z.object({ before: planFiguresSchema, after: planFiguresSchema, replanned: z.boolean() });
export type PlanShift = z.infer<typeof planShiftSchema>;

/** PATCH …?preview=true: what a settings change would do, nothing stored. */
export const settingsPreviewSchema = z.object({ changes: z.array(settingChangeSchema), plan: planShiftSchema.nullable() });
export type SettingsPreview = z.infer<typeof settingsPreviewSchema>;

/** GET …/changes: one recorded settings change. */
export const changeLogEntrySchema = z.object({ at: instant, by: z.string(), changes: z.array(settingChangeSchema) });
export type ChangeLogEntry = z.infer<typeof changeLogEntrySchema>;

/**
 * An announcement on a competition's Overview: an organizer's (`post`, `by` their name) or the app's
 * own notice (`settings`: live settings changed, `reminder`: a day before the deadline, `closed`), with `by` null.
 */
export const announcementViewSchema = z.object({
  id: z.uuid(),
  kind: z.enum(["post", "settings", "reminder", "closed"]),
  title: z.string(),
  body: z.string(),
  by: z.string().nullable(),
  createdAt: instant,
});
export type AnnouncementView = z.infer<typeof announcementViewSchema>;

/** One delivery of a webhook's event (the manage page's log): its state, attempts and the last error. */
export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  type: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempts: count,
  lastError: z.string().nullable(),
  createdAt: instant,
  deliveredAt: instant.nullable(),
});

/** A competition's webhook as its organizers see it: never its secret, which only the creation's answer holds. */
/** The events a webhook receives: "all" (those added after it was created too) or a list of some. */
const webhookEvents = z.union([z.literal("all"), z.array(z.string())]);
export const webhookViewSchema = z.object({ id: z.uuid(), url: z.string(), events: webhookEvents, createdAt: instant, deliveries: z.array(webhookDeliverySchema) });
export type WebhookView = z.infer<typeof webhookViewSchema>;

/** POST …/webhooks: the webhook with its signing secret, shown this once (Standard Webhooks' `whsec_` form). */
export const webhookCreatedSchema = z.object({ id: z.uuid(), url: z.string(), events: webhookEvents, secret: z.string().regex(/^whsec_/), createdAt: instant });

/** PUT …/solution: the file's rows, the split, its hash, and warnings (groups with rows in both splits). */
export const solutionUploadedSchema = z.object({ rows: count, public: count, holdout: count, sha256: z.string(), warnings: z.array(z.string()) });

/** A data file of a competition. */
export const attachmentSchema = z.object({ id: z.uuid(), filename: z.string(), contentType: z.string(), size: count, sha256: z.string(), createdAt: instant });
export type AttachmentSummary = z.infer<typeof attachmentSchema>;

/** A resumable upload of a data file in progress (docs/api.md#resumable-uploads): which parts are in, and until when it is kept. */
export const attachmentUploadSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  size: count,
  partBytes: count,
  partCount: count,
  /** the numbers (from 1) of the parts that arrived whole, in order */
  received: z.array(count),
  receivedBytes: count,
  expiresAt: instant,
});
export type AttachmentUploadState = z.infer<typeof attachmentUploadSchema>;

/** A column of a CSV data file as its upload summarized it (lib/csv/profile.ts ColumnSummary). */
const columnSummarySchema = z.object({
  name: z.string(),
  type: z.enum(["integer", "number", "boolean", "date", "text", "empty"]),
  missing: count,
  distinct: count.describe("distinct non-missing values: exactly this many when distinctExact, else more than this many"),
  distinctExact: z.boolean(),
  min: z.number().nullable().describe("the smallest value of an integer or number column, else null"),
  max: z.number().nullable().describe("the largest value of an integer or number column, else null"),
  earliest: z.string().nullable().describe("the earliest value of a date column as written (ISO 8601), else null"),
  latest: z.string().nullable().describe("the latest value of a date column as written (ISO 8601), else null"),
});

/** What the Data tab shows of a file (lib/csv/profile.ts FilePreview): a CSV file's first rows and column summaries, or why there is none. */
export const filePreviewSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("csv"),
    header: z.array(z.string()),
    columns: count,
    rows: count,
    ragged: count,
    preview: z.array(z.array(z.string())),
    summaries: z.array(columnSummarySchema),
  }),
  z.object({ kind: z.literal("none"), reason: z.string() }),
]);

/** GET …/attachments/{id}/preview: the file, and its preview (null for a file uploaded before previews existed). */
export const attachmentPreviewSchema = attachmentSchema.extend({ preview: filePreviewSchema.nullable() });
export type AttachmentPreview = z.infer<typeof attachmentPreviewSchema>;

/**
 * GET …/publish (organizers, drafts): everything publishing needs (`ready` when all of it is in
 * place), and what the organizer must acknowledge in POST …/publish's `acknowledge`, each in words.
 */
export const publishChecklistSchema = z.object({
  ready: z.boolean(),
  checks: z.array(publishCheckSchema),
  acknowledgments: z.array(z.object({ code: acknowledgmentCodeSchema, message: z.string() })),
});
export type PublishChecklist = z.infer<typeof publishChecklistSchema>;

/** GET …/bans: one banned user (organizers). */
export const banSchema = z.object({ userId: z.uuid(), name: z.string(), email: z.string(), reason: z.string(), createdAt: instant });
export type BanView = z.infer<typeof banSchema>;

/** GET …/organizers (organizers): who organizes (the creator first), the invitations not accepted yet, and whether the caller may remove co-organizers (the creator and admins). */
export const organizersSchema = z.object({
  organizers: z.array(z.object({ userId: z.uuid(), name: z.string(), email: z.string(), creator: z.boolean() })),
  invitations: z.array(z.object({ id: z.uuid(), email: z.string(), invitedBy: z.string(), expiresAt: instant })),
  mayRemove: z.boolean(),
});
export type OrganizersView = z.infer<typeof organizersSchema>;

/** GET …/registrations: one request to take part (organizers see all, a user their own). */
export const registrationSchema = z.object({ id: z.uuid(), status: z.string(), createdAt: instant, user: z.object({ name: z.string(), email: z.string() }) });
export type RegistrationView = z.infer<typeof registrationSchema>;

// The calibration and the plan (their types are lib/calibration's; see the head of this file)

const byMethodSchema = z.record(z.string(), z.number().nullable());

/** A complete correlation model, as the calibration reads it (lib/calibration/models.ts). */
export const correlationModelCompleteSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("independent") }),
  z.object({ kind: z.literal("groups"), maxGroupSize: z.number().int() }),
  z.object({
    kind: z.literal("markov"),
    transition: z.array(z.array(z.number())),
    initial: z.union([z.array(z.number()), z.literal("stationary")]).optional(),
    chains: z.array(z.number().int()).optional(),
  }),
  z.object({ kind: z.literal("max-influence"), bound: z.number() }),
]);

/** PUT …/correlation: the model resolved against the solution (lib/calibration/resolve.ts CorrelationSummary). */
export const correlationSummarySchema = z
  .object({
    model: correlationModelCompleteSchema,
    n: count,
    nEff: z.number(),
    groupSizes: z.record(z.string(), z.number().int()).optional(),
    chain: z
      .object({
        states: z.number().int(),
        stationary: z.array(z.number()),
        irreducible: z.boolean(),
        period: z.number().int(),
        reversible: z.boolean(),
        spectralGap: z.number().nullable(),
        lambda: z.number(),
        mixingTime: z.number().nullable(),
        stateNames: z.array(z.string()).nullable(),
        chains: z.number().int(),
        longestChain: z.number().int(),
      })
      .optional(),
  })
  .meta({ id: "CorrelationSummary" });

/** The planner's answer (lib/calibration/planner.ts Plan; docs/mechanism.md §2.4, §2.6, §2.7). */
export const planSchema = z
  .object({
    sigma: z.number(),
    threshold: z.number(),
    budget: z.number().int(),
    answerDecimals: z.number().int(),
    epsDp: z.number(),
    epsBdp: z.number(),
    byMethod: byMethodSchema,
    exhaustive: z.boolean(),
    nEff: z.number(),
    guarantee: z.object({
      holds: z.boolean(),
      proof: z.enum(["bdp", "description-length"]).nullable(),
      scope: z.literal("team"),
      tolerance: z.number().nullable(),
      requiredN: z.number().nullable(),
      beta: z.number(),
      maxQueries: z.number().int(),
      split: z.number().nullable(),
      byProof: z.object({
        bdp: z.object({ holds: z.boolean(), tolerance: z.number().nullable() }),
        descriptionLength: z.object({ holds: z.boolean(), tolerance: z.number(), deviation: z.number(), publicAnswer: z.number(), holdoutAnswer: z.number() }).nullable(),
      }),
      explanation: z.string(),
    }),
    competition: z.object({
      scope: z.literal("competition"),
      teams: z.number().int(),
      cap: z.number().int().nullable(),
      tolerance: z.number().nullable(),
      holds: z.boolean(),
      curve: z.array(z.object({ cap: z.number().int(), tolerance: z.number() })),
      honestCharges: z.number(),
      explanation: z.string(),
    }),
    honest: z.object({
      gapSd: z.number(),
      expectedCharges: z.number(),
      recommended: z.object({ sigma: z.number(), threshold: z.number(), expectedCharges: z.number() }),
    }),
    scores: z
      .object({
        concentration: z.object({ size: z.number(), inequality: z.string() }),
        split: z.object({ deviation: z.number(), threshold: z.number(), comparison: z.number(), answer: z.number() }),
        byChecks: z.array(z.object({ checks: count, bound: z.number() })),
      })
      .nullable(),
    remedies: z.array(z.object({ change: z.enum(["holdout", "submissions", "budget", "settings", "cap", "model", "metric"]), to: z.number().nullable(), text: z.string() })),
  })
  .meta({ id: "Plan" });

const pointSchema = z.object({ x: z.number(), y: z.number() });

/** POST …/mechanism/preview: the plan and the three plots, nothing stored; `tolerance` is the τ of the side-by-side comparison. */
export const mechanismPreviewSchema = z.object({
  plan: planSchema,
  curves: z.object({
    budgetByTolerance: z.object({ bdp: z.array(pointSchema), count: z.array(pointSchema) }),
    epsBdpByNoise: z.array(pointSchema),
    budgetByCalibration: z.array(z.object({ label: z.string(), budget: z.number().int(), epsDp: z.number().nullable() })),
    tolerance: z.number(),
  }),
});
export type MechanismPreview = z.infer<typeof mechanismPreviewSchema>;

/** POST …/attack-preview: the boosting attack against the draft's mechanism (lib/experiments/preview.ts AttackPreview) and the budget it ran with. */
export const attackPreviewSchema = z.object({
  rows: count,
  plain: z.array(z.object({ x: z.number(), y: z.number().nullable() })),
  protected: z.array(z.object({ x: z.number(), y: z.number().nullable() })),
  budgetSpent: count,
  budget: z.number().int(),
});

/** POST /api/v1/calibrate (lib/calibration/calibrate.ts CalibrationAnswer): ε_DP for an ε_BDP, ε_BDP for an ε_DP, or the planner's answer. */
export const calibrationAnswerSchema = z.union([
  z.object({ epsDp: z.number(), byMethod: byMethodSchema, exhaustive: z.boolean() }),
  z.object({ epsBdp: z.number(), byMethod: byMethodSchema, exhaustive: z.boolean() }),
  planSchema,
]);

// Organizers' views of the holdout

/** The holdout health (organizers): ε_DP spent per team and in all (lib/mechanism/accounting.ts). */
export const healthReportSchema = z.object({
  perHoldoutAnswer: z.number(),
  total: z.number(),
  teams: z.array(
    z.object({
      name: z.string(),
      holdoutAnswers: count,
      openEpochs: count,
      epsDp: z.number(),
      remaining: z.number().int(),
      initial: z.number().int(),
      exhausted: z.boolean(),
    }),
  ),
  exhausted: count,
});
export type HealthReport = z.infer<typeof healthReportSchema>;

/**
 * GET …/reveal (anyone, once the organizers revealed a closed competition: docs/mechanism.md §2.10):
 * the commitment; the secret (hex) and the settings text its commitment hashes; the mechanism's
 * parameters the answers were drawn with; where to fetch the solution as uploaded and the transcript.
 */
export const revealSchema = z
  .object({
    commitment: z.object({ solution: z.string(), secret: z.string(), publishedAt: instant }),
    revealedAt: instant,
    secret: z.string(),
    settings: z.string(),
    mechanism: z.object({ sigma: z.number(), threshold: z.number(), answerDecimals: z.number().int(), maxQueries: z.number().int(), sensitivity: z.number() }),
    solution: z.object({ url: z.string(), sha256: z.string(), size: count }),
    transcript: z.object({ url: z.string(), queries: count }),
  })
  .meta({ id: "Reveal" });
export type Reveal = z.infer<typeof revealSchema>;

/** GET …/reveal/transcript's columns: every query in order of stream and index, the values in [0, 1] units exactly as stored. */
export const TRANSCRIPT_COLUMNS = [
  "submission_id",
  "team_id",
  "team",
  "stream",
  "query_index",
  "position",
  "created_at",
  "kind",
  "public_value",
  "holdout_value",
  "answer",
  "budget_before",
  "budget_after",
] as const;

/** GET …/audit (organizers): every answer replayed from the stored secret; examples of mismatches. */
export const auditReportSchema = z.object({ queries: count, mismatches: count, examples: z.array(z.object({ submissionId: z.uuid(), problem: z.string() })) });
export type AuditReport = z.infer<typeof auditReportSchema>;

/**
 * Signals of one person behind several teams (organizers): accounts in different teams created from
 * one client address within a day (the address is never shown), accounts whose handles at one
 * provider follow one pattern, and one verified address behind accounts of several teams (`provider`
 * by its configured name, null for the accounts' own addresses), and near-identical submissions.
 */
export const sybilSignalsSchema = z.object({
  sameAddress: z.array(z.object({ accounts: z.array(z.object({ name: z.string(), team: z.string(), createdAt: instant })) })),
  samePattern: z.array(z.object({ provider: z.string().nullable(), base: z.string(), accounts: z.array(z.object({ name: z.string(), team: z.string(), handle: z.string() })) })),
  sharedAddress: z.array(z.object({ address: z.string(), accounts: z.array(z.object({ name: z.string(), team: z.string(), provider: z.string().nullable() })) })),
  nearIdentical: z.array(z.object({ teams: z.tuple([z.string(), z.string()]), agreement: z.number() })),
});
export type SybilSignals = z.infer<typeof sybilSignalsSchema>;

// Submissions

/**
 * The kinds a scored submission is stored with: the mechanism's (public, holdout, exhausted — the
 * team's budget is spent — and limit — past the competition's m), and "capped": no check because the
 * competition's cap on holdout answers over all teams is reached.
 */
export const storedKindSchema = z.enum(["public", "holdout", "exhausted", "limit", "capped"]);
export type StoredKind = z.infer<typeof storedKindSchema>;

/** …and "late": after the close, the exact holdout score (never ranked in the final standings). */
export const resultKindSchema = z.enum([...storedKindSchema.options, "late"]);
export type ResultKind = z.infer<typeof resultKindSchema>;

/**
 * An answer as its team sees it, in display units: `score` is what the mechanism released (null for
 * ⊥), `publicScore` the submission's exact public score, which the team always sees (it is a
 * function of the public rows alone: docs/mechanism.md §2.2); when the answer is not a public one it
 * is "public score, not checked". `bound` is the half-width of `score`'s interval that the mechanism
 * proves: with probability at least 95 %, every score the team is shown lies within its bound of its
 * true score (docs/mechanism.md §2.8). Null when no score was released, for a late answer (the
 * guarantee covers the live competition only) and where no proof covers the competition's metric and
 * correlation model.
 */
/** An answer as its team sees it; `decimals`: what its numbers are shown to (lib/metrics/display.ts: those its bound supports, else the competition's displayPrecision). */
export const answerSchema = z.object({ kind: resultKindSchema, score: z.number().nullable(), publicScore: z.number(), bound: z.number().nullable(), decimals: z.number().int() });
export type Answer = z.infer<typeof answerSchema>;

const budgetSchema = z.object({ remaining: z.number().int(), initial: z.number().int() });

/** POST …/submissions: the answer to one submission and the team's budget after it. */
export const submissionResultSchema = z.object({ id: z.uuid(), createdAt: instant, answer: answerSchema, budget: budgetSchema }).meta({ id: "SubmissionResult" });
export type SubmissionResult = z.infer<typeof submissionResultSchema>;

/**
 * GET …/submissions: one of the caller's team's submissions: answers only, never raw scores while the
 * competition runs; once it has closed, each submission's `privateScore` (its exact holdout score,
 * display units), absent before.
 */
export const mySubmissionSchema = submissionResultSchema.extend({
  by: z.string(),
  selected: z.boolean(),
  description: z.string().nullable(),
  filename: z.string().nullable(),
  privateScore: z.number().optional(),
});
export type MySubmission = z.infer<typeof mySubmissionSchema>;

/** A sandbox test as organizers see it: exact scores in display units, and its baseline name when shown. */
export const sandboxTestSchema = z
  .object({
    id: z.uuid(),
    createdAt: instant,
    by: z.string(),
    publicScore: z.number(),
    holdoutScore: z.number(),
    description: z.string().nullable(),
    filename: z.string().nullable(),
    baseline: z.object({ name: z.string(), score: z.number() }).nullable(),
  })
  .meta({ id: "SandboxTest" });
export type SandboxRow = z.infer<typeof sandboxTestSchema>;

/** One submission as organizers see it (GET …/submissions/all): raw scores included (display units). */
export const consoleRowSchema = z.object({
  id: z.uuid(),
  createdAt: instant,
  team: z.string(),
  teamId: z.uuid(),
  user: z.string(),
  kind: z.string(),
  answer: z.number().nullable(),
  publicScore: z.number(),
  holdoutScore: z.number(),
  description: z.string().nullable(),
  filename: z.string().nullable(),
  flags: z.array(z.string()),
});
export type ConsoleRow = z.infer<typeof consoleRowSchema>;

// Teams

/** A team's daily submissions (GET …/team `limits`): the cap counts per UTC day. */
export const dailyLimitsSchema = z.object({ dailyLimit: z.number().int(), usedToday: count, remainingToday: count, resetsAt: instant });
export type DailyLimits = z.infer<typeof dailyLimitsSchema>;

/** A pending merge request as a team's members see it: the other team, who asked, when. */
export const mergeRequestSchema = z.object({ id: z.uuid(), team: z.string(), teamId: z.uuid(), requestedBy: z.string(), createdAt: instant });
export type MergeRequestView = z.infer<typeof mergeRequestSchema>;

const disqualifiedSchema = z.object({ at: instant, reason: z.string() }).nullable();

/** GET …/team: the caller's team. */
export const teamViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    inviteCode: z.string(),
    members: z.array(z.object({ name: z.string() })),
    budget: budgetSchema,
    submissions: count,
    /** the competition's limit m of scored submissions per team, and how many the team has used (null before publishing) */
    scored: z.object({ used: count, limit: z.number().int() }).nullable(),
    /** the daily cap: used today, left today, when it resets (midnight UTC) */
    limits: dailyLimitsSchema,
    /** set when the organizers disqualified the team: when and why (it cannot submit) */
    disqualified: disqualifiedSchema,
    /** pending merge requests: other teams asking to absorb this one (`incoming`), and this team's own (`outgoing`) */
    mergeRequests: z.object({ incoming: z.array(mergeRequestSchema), outgoing: z.array(mergeRequestSchema) }),
  })
  .meta({ id: "Team" });
export type TeamView = z.infer<typeof teamViewSchema>;

/** POST …/teams/{teamId}/disqualify, DELETE: the team and whether it is disqualified now. */
export const disqualificationSchema = z.object({ id: z.uuid(), name: z.string(), disqualified: disqualifiedSchema });

// Boards

/** Which kind a shown score is (lib/mechanism/board.ts): a public score checked against the hidden holdout, or a noisy holdout answer. */
const boardKindSchema = z.enum(["public", "holdout"]);

/** One ranked team on the live leaderboard. */
export const leaderboardEntrySchema = z.object({
  rank: z.number().int().min(1),
  /** the team's name (docs/api.md), and its id for links */
  team: z.string(),
  teamId: z.uuid(),
  /** the shown score (docs/mechanism.md §2.6): the team's best public answer, else its latest holdout answer, display units */
  score: z.number().nullable(),
  kind: boardKindSchema.nullable(),
  /** the half-width the mechanism proves for the score (display units, docs/mechanism.md §2.8): with probability ≥ 95 % every score the team is shown lies within its bound of its true score; null where no proof covers the competition */
  bound: z.number().nullable(),
  /** the score's 95 % sampling error (a public score's on the public rows, a holdout answer's noise), display units: not a promise */
  uncertainty: z.number().nullable(),
  /** the decimals `score` and `bound` are shown to (lib/metrics/display.ts: those its bound supports, else the competition's displayPrecision) */
  decimals: z.number().int(),
  submissions: count,
  budget: budgetSchema,
  lastSubmissionAt: instant.nullable(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** The 95 % half-widths of the board's two kinds of score, in the metric's display units (docs/mechanism.md §2.6). */
export const scoreUncertaintySchema = z.object({ public: z.number(), holdout: z.number() });
export type ScoreUncertainty = z.infer<typeof scoreUncertaintySchema>;

/** GET …/leaderboard: one page of the live leaderboard. */
export const leaderboardSchema = z
  .object({
    metric: metricSummarySchema,
    displayPrecision: z.number().int(),
    /** entries over all pages (of the search, with `q`) */
    total: count,
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    /** the next page's address (same search and page size), null on the last page */
    next: z.string().nullable(),
    entries: z.array(leaderboardEntrySchema),
    /** the organizers' baselines: unranked rows, each its public score (lib/server/scoring/sandbox.ts) */
    /** a baseline is not a query of the mechanism: its `bound` is null */
    baselines: z.array(z.object({ name: z.string(), score: z.number(), kind: boardKindSchema, bound: z.null(), uncertainty: z.number().nullable(), decimals: z.number().int() })),
  })
  .meta({ id: "Leaderboard" });
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** GET …/leaderboard/late: each team's best exact holdout score among its late submissions. */
export const lateBoardSchema = z.object({
  metric: metricSummarySchema,
  displayPrecision: z.number().int(),
  lateSubmissions: z.boolean(),
  entries: z.array(z.object({ rank: z.number().int(), team: z.string(), teamId: z.uuid(), score: z.number(), submissions: count, lastSubmissionAt: instant })),
});
export type LateBoard = z.infer<typeof lateBoardSchema>;

/**
 * GET …/final: the final standings, each team's exact final score with the bound that holds under the
 * whole competition's adaptivity (docs/mechanism.md §2.9; null where no proof covers the metric and
 * model), the teams it is tied with (their intervals overlap: no proof tells the order apart), its
 * live rank and the shake-up.
 */
export const finalStandingsSchema = z.object({
  metric: metricSummarySchema,
  displayPrecision: z.number().int(),
  entries: z.array(
    z.object({
      rank: z.number().int(),
      team: z.string(),
      teamId: z.uuid(),
      score: z.number(),
      bound: z.number().nullable(),
      /** the decimals `score` and `bound` are shown to (lib/metrics/display.ts: those its bound supports, else the competition's displayPrecision) */
      decimals: z.number().int(),
      tiedWith: z.array(z.uuid()),
      liveRank: z.number().int().nullable(),
      shakeUp: z.number().int().nullable(),
    }),
  ),
});
export type FinalStandings = z.infer<typeof finalStandingsSchema>;

/** GET …/teams/{teamId}: a team's public page. */
export const teamHistorySchema = z.object({
  /** rank, shown score and its kind as on the leaderboard */
  team: z.object({
    id: z.uuid(),
    name: z.string(),
    members: z.array(z.string()),
    budget: budgetSchema,
    /** its rank on the live board (at the close, once closed) */
    rank: z.number().int().nullable(),
    /** its rank in the final standings once the competition has closed (null before, and for a team without a final score) */
    finalRank: z.number().int().nullable(),
    score: z.number().nullable(),
    kind: boardKindSchema.nullable(),
    /** the shown score's bound, as on the leaderboard */
    bound: z.number().nullable(),
    /** the decimals `score` and `bound` are shown to (lib/metrics/display.ts: those its bound supports, else the competition's displayPrecision) */
    decimals: z.number().int(),
    disqualified: disqualifiedSchema,
  }),
  metric: metricSummarySchema,
  displayPrecision: z.number().int(),
  /** the 95 % half-widths of a public answer (its sampling error) and of a holdout answer (its noise), display units */
  uncertainty: scoreUncertaintySchema.nullable(),
  /** every query in time order: the released answer (null when the budget was spent), its bound (docs/mechanism.md §2.8) and the budget after */
  history: z.array(
    z.object({ at: instant, kind: storedKindSchema, score: z.number().nullable(), bound: z.number().nullable(), decimals: z.number().int(), budget: z.number().int() }),
  ),
});
export type TeamHistory = z.infer<typeof teamHistorySchema>;

/** `correlationModelSchema` is the organizer's input; the answer to PUT …/correlation without a solution echoes it. */
export const correlationEchoSchema = z.object({ model: correlationModelSchema });
