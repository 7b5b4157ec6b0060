import "server-only";
import { randomBytes } from "node:crypto";
import { db, isUniqueViolation, lockName } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser } from "@/lib/server/accounts/users";
import { accessOf, withConfiguredProvider } from "./access";
import type { ThresholdoutParams } from "@/lib/mechanism/thresholdout";
import { secretCommitment, settingsText } from "@/lib/mechanism/commitment";
import { getMetric, type Metric, type SplitShape } from "@/lib/metrics/registry";
import type { MetricParams } from "@/lib/metrics/types";
import { type CorrelationModelInput, DEFAULT_BUDGET, type MechanismInput } from "@/lib/validation/calibration";
import { type CompetitionListQuery, competitionListQuerySchema, type CreateCompetitionInput } from "@/lib/validation/competitions";
import { hasNul } from "@/lib/validation/text";
import { Prisma } from "@/lib/generated/prisma/client";
import type { CompetitionDetails, CompetitionListItem } from "@/lib/responses";

/** Every column a server function may need, except the secret (read only by the scoring service). */
export const COMPETITION_SELECT = {
  id: true,
  slug: true,
  title: true,
  description: true,
  rules: true,
  status: true,
  metric: true,
  metricParams: true,
  startsAt: true,
  endsAt: true,
  dailySubmissionLimit: true,
  maxTeamSize: true,
  displayPrecision: true,
  correlation: true,
  mechanism: true,
  sigma: true,
  threshold: true,
  budget: true,
  maxQueries: true,
  answerDecimals: true,
  holdoutCap: true,
  holdoutAnswers: true,
  access: true,
  lateSubmissions: true,
  publishedAt: true,
  closedAt: true,
  createdAt: true,
  createdById: true,
  solutionCommitment: true,
  secretCommitment: true,
  committedSettings: true,
  revealedAt: true,
} as const satisfies Prisma.CompetitionSelect;

export type CompetitionRow = Prisma.CompetitionGetPayload<{ select: typeof COMPETITION_SELECT }>;

// The typed readers of a competition's stored settings: the only places its JSON columns are cast
// (each was validated by its schema when it was saved).

/** The competition's metric with its parameters. */
export function metricOf(c: Pick<CompetitionRow, "metric" | "metricParams">): Metric {
  return getMetric(c.metric, c.metricParams as MetricParams);
}

/** The correlation model as the organizer set it; independent rows until one is set. */
export function correlationOf(c: Pick<CompetitionRow, "correlation">): CorrelationModelInput {
  return (c.correlation as CorrelationModelInput | null) ?? { kind: "independent" };
}

/**
 * Algorithm 1's parameters for a published competition: σ, T, B₀, m and the answers' decimals as
 * fixed at publishing, on a holdout of this shape (its size and the metric's Δ, solutions.ts shapesOf).
 */
export function thresholdoutParams(competition: CompetitionRow, holdout: SplitShape): ThresholdoutParams {
  return {
    sigma: competition.sigma!,
    threshold: competition.threshold!,
    budget: competition.budget!,
    sensitivity: holdout.sensitivity,
    maxQueries: competition.maxQueries!,
    answerDecimals: competition.answerDecimals!,
  };
}

/**
 * The commitment to the mechanism's secret with the settings its answers are drawn with
 * (lib/mechanism/commitment.ts): the settings text and its hash with this secret, for σ, T and the
 * answers' decimals as planned.
 */
export function commitSecret(
  competition: Pick<CompetitionRow, "metric" | "metricParams" | "correlation">,
  planned: { sigma: number; threshold: number; answerDecimals: number },
  secret: Uint8Array,
): { secretCommitment: string; committedSettings: string } {
  const text = settingsText({
    metric: competition.metric,
    metricParams: competition.metricParams as Record<string, number>,
    correlation: competition.correlation ?? { kind: "independent" },
    ...planned,
  });
  return { committedSettings: text, secretCommitment: secretCommitment(secret, text) };
}

/** The mechanism settings as the organizer set them, or null before they are set. */
export function mechanismOf(c: Pick<CompetitionRow, "mechanism">): MechanismInput | null {
  return c.mechanism as MechanismInput | null;
}

/** What anyone who may see the competition may read (docs/api.md, GET …/competitions/{slug}). */
export function toPublicDetails(c: CompetitionRow): CompetitionDetails {
  const metric = metricOf(c);
  return {
    slug: c.slug,
    title: c.title,
    description: c.description,
    rules: c.rules,
    status: c.status,
    metric: { name: metric.name, title: metric.title, direction: metric.direction, params: c.metricParams as MetricParams },
    startsAt: c.startsAt?.toISOString() ?? null,
    endsAt: c.endsAt.toISOString(),
    dailySubmissionLimit: c.dailySubmissionLimit,
    maxTeamSize: c.maxTeamSize,
    displayPrecision: c.displayPrecision,
    publishedAt: c.publishedAt?.toISOString() ?? null,
    closedAt: c.closedAt?.toISOString() ?? null,
    // σ, T, B₀ and m are public parameters (T̂, the noisy threshold, is the secret one).
    mechanism: c.status === "draft" || c.budget === null ? null : { sigma: c.sigma, threshold: c.threshold, budget: c.budget, maxQueries: c.maxQueries },
    // Holdout answers released over all teams, and the organizer's cap on them (docs/mechanism.md §2.6).
    holdout: { answersReleased: c.holdoutAnswers, cap: c.holdoutCap },
    // What publishing fixed (docs/mechanism.md §2.10), and when the organizers revealed it.
    commitment:
      c.status === "draft" || c.solutionCommitment === null || c.secretCommitment === null
        ? null
        : { solution: c.solutionCommitment, secret: c.secretCommitment, publishedAt: c.publishedAt!.toISOString() },
    revealedAt: c.revealedAt?.toISOString() ?? null,
    access: accessOf(c),
    lateSubmissions: c.lateSubmissions,
  };
}

/**
 * The words of a search as a prefix query of PostgreSQL's full-text search ("power spi" →
 * `power:* & spi:*`), or null when it has none. Only letters and digits reach the query, so it
 * cannot be malformed.
 */
export function titleQuery(q: string | undefined): string | null {
  const words =
    (q ?? "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
}

/**
 * The WHERE clause of the competitions list: what the viewer may see (drafts: their organizers and
 * admins), then the filters. Each is served by an index at any number of competitions: the title's
 * words by `competitions_title_search_idx` (GIN over `to_tsvector('simple', title)`, the same
 * expression as here), the status by `competitions_status_idx`, "mine" by the team members' and
 * organizers' user indexes.
 */
export function competitionListWhere(viewer: PublicUser | null, query: Omit<CompetitionListQuery, "page" | "pageSize">, now: Date): Prisma.Sql {
  const organizes = (user: PublicUser) =>
    Prisma.sql`EXISTS (SELECT 1 FROM competition_organizers o WHERE o.competition_id = c.id AND o.user_id = ${user.id}::uuid AND o.removed_at IS NULL)`;
  const conditions = [
    viewer?.role === "admin"
      ? Prisma.sql`TRUE`
      : viewer
        ? Prisma.sql`(c.status IN ('published', 'closed') OR (c.status = 'draft' AND ${organizes(viewer)}))`
        : Prisma.sql`c.status IN ('published', 'closed')`,
  ];
  if (query.status === "open") conditions.push(Prisma.sql`c.status = 'published' AND (c.starts_at IS NULL OR c.starts_at <= ${now}) AND c.ends_at > ${now}`);
  if (query.status === "upcoming") conditions.push(Prisma.sql`c.status = 'published' AND c.starts_at > ${now}`);
  if (query.status === "closed") conditions.push(Prisma.sql`(c.status = 'closed' OR (c.status = 'published' AND c.ends_at <= ${now}))`);
  const words = titleQuery(query.q);
  if (words) conditions.push(Prisma.sql`to_tsvector('simple', c.title) @@ to_tsquery('simple', ${words})`);
  if (query.mine) {
    if (!viewer) throw new AppError("unauthorized", "sign in to list your own competitions (mine=true)");
    // The viewer's few competitions first, then each by its primary key (an OR of two EXISTS would read every competition).
    conditions.push(
      Prisma.sql`c.id IN (SELECT m.competition_id FROM team_members m WHERE m.user_id = ${viewer.id}::uuid
                          UNION SELECT o.competition_id FROM competition_organizers o WHERE o.user_id = ${viewer.id}::uuid AND o.removed_at IS NULL)`,
    );
  }
  return Prisma.join(conditions, " AND ");
}

/** One page of the competitions list: its cards' columns, open ones first (then drafts, then closed), each group by deadline. */
export function competitionListStatement(viewer: PublicUser | null, query: CompetitionListQuery, now: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT c.slug, c.title, c.status::text AS status, c.metric, c.starts_at, c.ends_at, c.closed_at,
           (SELECT count(*)::int FROM teams t WHERE t.competition_id = c.id AND t.merged_into_id IS NULL) AS teams
    FROM competitions c WHERE ${competitionListWhere(viewer, query, now)}
    ORDER BY CASE c.status WHEN 'published' THEN 0 WHEN 'draft' THEN 1 ELSE 2 END, c.ends_at, c.slug
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`;
}

type ListRow = { slug: string; title: string; status: CompetitionListItem["status"]; metric: string; starts_at: Date | null; ends_at: Date; closed_at: Date | null; teams: number };

/**
 * GET /api/v1/competitions and the competitions page: the competitions the viewer may see that
 * match the query, open ones first (then drafts, then closed), each group by deadline; one page
 * of them, with how many match in all. A card's team count reads the teams' competition index.
 */
export async function listCompetitions(
  viewer: PublicUser | null,
  query: CompetitionListQuery = competitionListQuerySchema.parse({}),
): Promise<{ competitions: CompetitionListItem[]; total: number; page: number; pageSize: number }> {
  const now = new Date();
  const [rows, [{ total }]] = await Promise.all([
    db.$queryRaw<ListRow[]>(competitionListStatement(viewer, query, now)),
    db.$queryRaw<[{ total: number }]>`SELECT count(*)::int AS total FROM competitions c WHERE ${competitionListWhere(viewer, query, now)}`,
  ]);
  return {
    competitions: rows.map((c) => ({
      slug: c.slug,
      title: c.title,
      status: c.status,
      metric: c.metric,
      startsAt: c.starts_at?.toISOString() ?? null,
      endsAt: c.ends_at.toISOString(),
      closedAt: c.closed_at?.toISOString() ?? null,
      teams: c.teams,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Inside a transaction: serialises the decisions about one person in one competition (creating or
 * joining a team there, becoming one of its organizers) across any number of app instances, so
 * that nobody ends up both competing and organizing.
 */
export function lockParticipant(tx: Prisma.TransactionClient, competitionId: string, userId: string): Promise<void> {
  return lockName(tx, `participant:${competitionId}:${userId}`);
}

/** Whether the user organizes the competition now (admins organize every one). */
export async function isOrganizer(user: PublicUser | null, competitionId: string): Promise<boolean> {
  if (!user) return false;
  if (user.role === "admin") return true;
  return (await db.competitionOrganizer.count({ where: { competitionId, userId: user.id, removedAt: null } })) > 0;
}

declare const organized: unique symbol;
/**
 * A competition whose organizer requireOrganizer has checked, and the only way to hold one: the
 * readers and writers of what only organizers see (registrations, bans, the change log, the
 * organizers, the sandbox) take it instead of an id, so no page or route can call them unchecked.
 */
export type OrganizedCompetition = CompetitionRow & { readonly [organized]: true };

/**
 * The competition, for its organizers and admins only. Anyone else gets 404 for a draft (its
 * existence is not revealed) and 403 once it is public.
 */
export async function requireOrganizer(user: PublicUser, slug: string): Promise<OrganizedCompetition> {
  const competition = await competitionBySlug(slug);
  if (!competition) throw notFound(slug);
  const organized = await asOrganizer(user, competition);
  if (organized) return organized;
  if (competition.status === "draft") throw notFound(slug);
  throw new AppError("forbidden", "only this competition's organizers can do this");
}

/** The competition as `user` organizes it, or null where they do not (a route that answers both sides). */
export async function asOrganizer(user: PublicUser | null, competition: CompetitionRow): Promise<OrganizedCompetition | null> {
  return (await isOrganizer(user, competition.id)) ? (competition as OrganizedCompetition) : null;
}

/**
 * The competition as a viewer may see it: drafts only for their organizers (404 for anyone else).
 * Whether the viewer organizes a public competition is a separate question (isOrganizer), asked
 * only where the answer changes something: this runs on every submission.
 */
export async function getVisibleCompetition(viewer: PublicUser | null, slug: string): Promise<CompetitionRow> {
  const competition = await competitionBySlug(slug);
  if (!competition) throw notFound(slug);
  if (competition.status === "draft" && !(await isOrganizer(viewer, competition.id))) throw notFound(slug);
  return competition;
}

/** The competition called `slug`, or null; a slug with a NUL (a page's `/competitions/a%00b`) names none, and is not looked for. */
function competitionBySlug(slug: string): Promise<CompetitionRow | null> {
  if (hasNul(slug)) return Promise.resolve(null);
  return db.competition.findUnique({ where: { slug }, select: COMPETITION_SELECT });
}

function notFound(slug: string): AppError {
  return new AppError("not_found", `no competition called "${slug}"`);
}

export function checkMetric(name: string, params: MetricParams | undefined): void {
  getMetric(name, params ?? {}); // throws a MathInputError (422) naming a bad parameter
}

/** Drafts one account may hold at once (admins: any number): each may carry a solution and data files. */
export const MAX_DRAFTS = 5;

/**
 * Creates a draft competition; its creator becomes its first organizer. 409 when the slug is
 * taken, or when the creator already holds MAX_DRAFTS drafts (counted under a lock on the creator's
 * drafts, so a burst of requests cannot pass it together).
 */
export async function createCompetition(user: PublicUser, data: CreateCompetitionInput): Promise<CompetitionRow> {
  checkMetric(data.metric.name, data.metric.params);
  const access = data.access ? withConfiguredProvider(data.access) : {};
  try {
    return await db.$transaction(async (tx) => {
      if (user.role !== "admin") {
        await lockName(tx, `drafts:${user.id}`);
        const drafts = await tx.competition.count({ where: { createdById: user.id, status: "draft" } });
        if (drafts >= MAX_DRAFTS) throw new AppError("conflict", `you have ${drafts} draft competitions, the most one account may hold; publish or delete one first`);
      }
      return tx.competition.create({
        data: {
          slug: data.slug,
          title: data.title,
          description: data.description,
          rules: data.rules,
          metric: data.metric.name,
          metricParams: data.metric.params ?? {},
          startsAt: data.startsAt,
          endsAt: data.endsAt,
          dailySubmissionLimit: data.dailySubmissionLimit,
          maxTeamSize: data.maxTeamSize,
          displayPrecision: data.displayPrecision,
          holdoutCap: data.holdoutCap,
          access,
          lateSubmissions: data.lateSubmissions,
          // The settings honest teams are best served by, planned once the solution is there (docs/mechanism.md §2.6).
          mechanism: { mode: "recommended", budget: DEFAULT_BUDGET },
          createdById: user.id,
          secret: randomBytes(32),
          organizers: { create: { userId: user.id } },
        },
        select: COMPETITION_SELECT,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `the slug "${data.slug}" is taken; choose another`);
    }
    throw error;
  }
}

/**
 * The submissions one team can have made from `start` to the instant `end`: the daily cap, which
 * resets at midnight UTC, times the UTC dates from one to the other, both counted (at least one).
 * The one rule behind the default m and the merge's limit.
 */
export function submissionsPossible(dailySubmissionLimit: number, start: Date, end: Date): number {
  const utcDate = (t: number) => Math.floor(t / 86_400_000);
  return dailySubmissionLimit * Math.max(1, utcDate(end.getTime()) - utcDate(start.getTime()) + 1);
}

/**
 * The default m of docs/mechanism.md §2.4: the submissions a team can make from the start
 * (startsAt, else the publishing date, else now for a draft) to the last instant before endsAt.
 */
export function defaultMaxQueries(competition: Pick<CompetitionRow, "dailySubmissionLimit" | "startsAt" | "endsAt" | "publishedAt">, now = new Date()): number {
  return submissionsPossible(competition.dailySubmissionLimit, competition.startsAt ?? competition.publishedAt ?? now, new Date(competition.endsAt.getTime() - 1));
}
