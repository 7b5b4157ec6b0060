import { z } from "zod";
import "./messages";
import { text } from "./text";
import { METRIC_NAMES } from "@/lib/metrics/types";

const slug = text()
  .trim()
  .min(3, { message: "use at least 3 characters" })
  .max(60, { message: "use at most 60 characters" })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: "use lowercase letters, digits and single hyphens, e.g. power-spikes-2026" });

const metric = z
  .object({
    name: z.enum(METRIC_NAMES as [string, ...string[]], { message: `choose one of ${METRIC_NAMES.join(", ")}` }),
    params: z.object({ pMin: z.number().optional(), lo: z.number().optional(), hi: z.number().optional() }).strict().optional(),
  })
  .strict();

const domain = text()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/, { message: "a domain such as university.edu" });

/**
 * A sign-in through a named provider that taking part needs: an identity of `provider` (`github`,
 * `google`, or an OpenID Connect provider's id in QUILTBOARD_OIDC_PROVIDERS) linked to the account,
 * whose address that provider verified at one of `domains` (or a subdomain) when any are given.
 * `name` is the provider's name as configured, which the server writes (a name sent is replaced).
 */
export const identityRuleSchema = z
  .object({
    provider: text()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { message: "a configured sign-in provider's id, e.g. github, google or an OpenID Connect provider's id" }),
    name: text().max(60).optional(),
    domains: z.array(domain).max(100).default([]),
  })
  .strict();
export type IdentityRule = z.infer<typeof identityRuleSchema>;

/** Who may take part (PATCH …/competitions/{slug} `{access}`, also after publishing). */
export const accessSchema = z
  .object({
    requireVerifiedEmail: z.boolean().default(false),
    /** addresses at these domains or their subdomains; empty: any */
    allowedEmailDomains: z.array(domain).max(100).default([]),
    /** organizers approve each person's request to take part */
    approval: z.boolean().default(false),
    /** a sign-in through this provider (absent: none needed) */
    identity: identityRuleSchema.optional(),
  })
  .strict();

export type Access = z.infer<typeof accessSchema>;

/** The dates a competition may have: from 1970 to the end of year 9999 (past it, no ISO 8601 date, which the database and its clients read). */
const DATES = { from: new Date("1970-01-01T00:00:00Z"), to: new Date("9999-12-31T23:59:59.999Z") };
const outOfRange = { message: "expected a date from 1970 to 9999, e.g. 2027-01-31T23:59:59Z" };
const date = z.coerce.date({ message: "expected a date, e.g. 2027-01-31T23:59:59Z" }).min(DATES.from, outOfRange).max(DATES.to, outOfRange);

/** POST /api/v1/competitions and the create form (docs/api.md). */
export const createCompetitionSchema = z
  .object({
    slug,
    title: text().trim().min(3, { message: "use at least 3 characters" }).max(120),
    description: text().max(50_000).default(""),
    rules: text().max(20_000).default(""),
    metric,
    startsAt: date.optional(),
    endsAt: date,
    dailySubmissionLimit: z.number().int().min(1).max(100_000).default(5),
    maxTeamSize: z.number().int().min(1).max(100).default(4),
    displayPrecision: z.number().int().min(1).max(10).default(5),
    /** optional cap on holdout answers over all teams together (docs/mechanism.md §2.6) */
    holdoutCap: z.number().int().min(1).max(10_000_000).optional(),
    access: accessSchema.optional(),
    lateSubmissions: z.boolean().default(false),
  })
  .strict()
  .refine((c) => !c.startsAt || c.startsAt < c.endsAt, { message: "the end must come after the start", path: ["endsAt"] });

export type CreateCompetitionInput = z.infer<typeof createCompetitionSchema>;

/** PATCH /api/v1/competitions/{slug}: any of the settings while a draft; after publishing, LIVE_SETTINGS. */
export const updateCompetitionSchema = z
  .object({
    title: text().trim().min(3).max(120),
    description: text().max(50_000),
    rules: text().max(20_000),
    metric,
    startsAt: date.nullable(),
    endsAt: date,
    dailySubmissionLimit: z.number().int().min(1).max(100_000),
    maxTeamSize: z.number().int().min(1).max(100),
    displayPrecision: z.number().int().min(1).max(10),
    holdoutCap: z.number().int().min(1).max(10_000_000).nullable(),
    access: accessSchema,
    lateSubmissions: z.boolean(),
  })
  .strict()
  .partial();

export type UpdateCompetitionInput = z.infer<typeof updateCompetitionSchema>;

/** What organizers may still change once a competition is published (the rest is what the mechanism was planned on). */
export const LIVE_SETTINGS = ["title", "description", "rules", "endsAt", "dailySubmissionLimit", "access", "lateSubmissions"] as const;

/** …and of those, what stops mattering once it has closed. */
export const OPEN_ONLY_SETTINGS = ["endsAt", "dailySubmissionLimit"] as const;

/** PUT …/registrations/{id}: an organizer's decision. */
/**
 * What an organizer must acknowledge to publish (docs/operating.md, Publishing): that no formal
 * guarantee covers the scores, or that the correlation model ignores the groups or the states the
 * solution declares.
 */
export const acknowledgmentCodeSchema = z.enum(["no_guarantee", "model_ignores_groups", "model_ignores_states"]);
export type AcknowledgmentCode = z.infer<typeof acknowledgmentCodeSchema>;

/** POST …/publish's body (optional): the acknowledgments GET …/publish listed. */
export const publishRequestSchema = z.object({ acknowledge: z.array(acknowledgmentCodeSchema).max(3).default([]) }).strict();
export type PublishRequest = z.infer<typeof publishRequestSchema>;

export const registrationDecisionSchema = z.object({ status: z.enum(["approved", "refused"]) }).strict();
export type RegistrationDecision = z.infer<typeof registrationDecisionSchema>;

/** POST …/bans: who (by address) and why; the reason is shown to the banned user. */
export const banSchema = z.object({ email: text().trim().toLowerCase().email(), reason: text().trim().min(3, { message: "say why, in a few words" }).max(500) }).strict();
export type BanInput = z.infer<typeof banSchema>;

/** POST …/announcements: an organizer's announcement, Markdown rendered as descriptions are (no raw HTML). */
export const announcementSchema = z
  .object({
    title: text().trim().min(3, { message: "use at least 3 characters" }).max(120, { message: "use at most 120 characters" }),
    body: text().trim().min(1, { message: "write the announcement" }).max(20_000, { message: "use at most 20,000 characters" }),
  })
  .strict();
export type AnnouncementInput = z.infer<typeof announcementSchema>;

/** The events a competition's webhooks receive (docs/api.md, Webhooks), with what each tells. */
export const WEBHOOK_EVENTS = {
  "submission.scored": "a submission was answered (its team, time and the team's budget; never a score)",
  "team.merged": "two teams merged (which into which, and the merged team's members; never a score)",
  "announcement.posted": "an organizer posted an announcement",
  "settings.changed": "the competition's settings changed (each before → after)",
  "competition.closed": "the competition closed and its final standings are out",
} as const;
export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;
const WEBHOOK_EVENT_LIST = Object.keys(WEBHOOK_EVENTS) as [WebhookEvent, ...WebhookEvent[]];

/**
 * POST …/webhooks: the receiver's address (http or https) and the events it wants: "all" (the
 * default), which is every event, those added later too, or a list of some.
 */
export const webhookSchema = z
  .object({
    url: text()
      .trim()
      .max(2000)
      .url({ message: "enter the receiver's address, e.g. https://example.org/quiltboard" })
      .refine((u) => !URL.canParse(u) || /^https?:$/.test(new URL(u).protocol), { message: "use an http or https address" }),
    events: z
      .union([
        z.literal("all"),
        z
          .array(z.enum(WEBHOOK_EVENT_LIST, { message: `one of ${WEBHOOK_EVENT_LIST.join(", ")}` }))
          .min(1)
          .max(WEBHOOK_EVENT_LIST.length)
          .transform((events) => [...new Set(events)]),
      ])
      .default("all"),
  })
  .strict();
export type WebhookInput = z.infer<typeof webhookSchema>;

/** PUT …/sandbox/{id}/baseline: the name the baseline row carries on the leaderboard. */
export const baselineSchema = z.object({ name: text().trim().min(2, { message: "use at least 2 characters" }).max(60) }).strict();
export type BaselineInput = z.infer<typeof baselineSchema>;

export const inviteOrganizerSchema = z.object({ email: text().trim().toLowerCase().email().max(254) }).strict();
export type InviteOrganizerInput = z.infer<typeof inviteOrganizerSchema>;

/** POST /api/v1/organizer-invitations/accept: the token of the invitation's link. */
export const invitationSchema = z.object({ token: text().min(1).max(200) }).strict();
export type InvitationInput = z.infer<typeof invitationSchema>;

/** A page of the live leaderboard: its entries unless asked for fewer or more, and the most one page may hold (the CSV export has them all). */
export const LEADERBOARD_PAGE = { default: 100, max: 1000 } as const;

/** A list's `page` (from 1) and `pageSize` query parameters, within its `sizes`. */
function pageFields(sizes: { default: number; max: number }) {
  return {
    page: z.coerce.number({ message: "page must be a whole number from 1" }).int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce
      .number({ message: `pageSize must be a whole number from 1 to ${sizes.max}` })
      .int()
      .min(1)
      .max(sizes.max)
      .default(sizes.default),
  };
}

/** GET …/leaderboard's query: a search and a page of `pageSize` entries, or (`format=csv`) every entry. */
export const leaderboardQuerySchema = z.object({
  q: text().max(200).optional(),
  ...pageFields(LEADERBOARD_PAGE),
  format: z.enum(["json", "csv"]).default("json"),
});

/** A page of the competitions list: the API's unless asked for fewer, and the most one page may hold. */
export const COMPETITION_PAGE = { default: 500, max: 500 } as const;

/**
 * GET /api/v1/competitions's query (and the competitions page's, so a filtered list is a link):
 * `status` open (taking entries), upcoming (published, opening later) or closed (or past its
 * deadline); `q` words the title contains, each as the start of a word; `mine` the competitions
 * the caller is on a team of or organizes; a page of `pageSize`.
 */
export const competitionListQuerySchema = z.object({
  status: z.enum(["open", "upcoming", "closed"], { message: "status must be open, upcoming or closed" }).optional(),
  q: text().trim().max(200).optional(),
  mine: z.enum(["true"], { message: "mine must be true (or left out)" }).optional(),
  ...pageFields(COMPETITION_PAGE),
});
export type CompetitionListQuery = z.infer<typeof competitionListQuerySchema>;
