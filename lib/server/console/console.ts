import "server-only";
import { db } from "@/lib/server/platform/db";
import { requireOrganizer, metricOf } from "@/lib/server/competitions/competitions";
import { AppError } from "@/lib/server/platform/errors";
import { sybilSignals } from "./sybil";
import type { PublicUser } from "@/lib/server/accounts/users";
import { csvTable } from "@/lib/csv/writer";
import { isUuid } from "@/lib/validation/ids";
import type { ConsoleRow, SybilSignals } from "@/lib/responses";

/**
 * GET …/submissions/all (organizers): every submission, newest first, with team, user, time, the
 * released answer (late ones: the exact holdout score), the raw public and holdout scores, the note
 * and flags (a disqualified team, a banned user, a near-duplicate of another team's submissions), and
 * the signals the flags come from. `teamId` narrows it to one team (the per-team drill-down).
 */
export async function listAllSubmissions(
  user: PublicUser,
  slug: string,
  options: { teamId?: string } = {},
): Promise<{ direction: "higher" | "lower"; displayPrecision: number; submissions: ConsoleRow[]; signals: SybilSignals }> {
  const competition = await requireOrganizer(user, slug);
  const metric = metricOf(competition);
  if (options.teamId !== undefined && !isUuid(options.teamId)) throw new AppError("not_found", "no such team in this competition");
  const where = { competitionId: competition.id, ...(options.teamId ? { teamId: options.teamId } : {}) };
  const select = { id: true, createdAt: true, publicValue: true, holdoutValue: true, description: true, filename: true, user: { select: { id: true, name: true } } } as const;
  const [scored, late, bans, signals] = await Promise.all([
    db.submission.findMany({
      where,
      orderBy: { createdAt: "desc" },
      select: { ...select, kind: true, answer: true, team: { select: { id: true, name: true, disqualifiedAt: true } } },
    }),
    db.unrankedSubmission.findMany({
      where: { ...where, kind: "late" },
      orderBy: { createdAt: "desc" },
      select: { ...select, holdoutValue: true, team: { select: { id: true, name: true, disqualifiedAt: true } } },
    }),
    db.competitionBan.findMany({ where: { competitionId: competition.id }, select: { userId: true } }),
    sybilSignals(competition),
  ]);
  const twins = new Map<string, string[]>();
  for (const { teams } of signals.nearIdentical) {
    twins.set(teams[0], [...(twins.get(teams[0]) ?? []), teams[1]]);
    twins.set(teams[1], [...(twins.get(teams[1]) ?? []), teams[0]]);
  }
  const banned = new Set(bans.map((b) => b.userId));
  const rows = [...scored.map((s) => ({ ...s, team: s.team })), ...late.map((s) => ({ ...s, kind: "late" as const, answer: s.holdoutValue, team: s.team! }))].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
  );
  return {
    direction: metric.direction,
    displayPrecision: competition.displayPrecision,
    submissions: rows.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      team: s.team.name,
      teamId: s.team.id,
      user: s.user.name,
      kind: s.kind,
      answer: s.answer === null ? null : metric.toDisplay(s.answer),
      publicScore: metric.toDisplay(s.publicValue),
      holdoutScore: metric.toDisplay(s.holdoutValue),
      description: s.description,
      filename: s.filename,
      flags: [
        ...(s.team.disqualifiedAt ? ["team disqualified"] : []),
        ...(banned.has(s.user.id) ? ["user banned"] : []),
        ...(twins.get(s.team.name) ?? []).map((t) => `near-duplicate of team ${t}`),
      ],
    })),
    signals,
  };
}

export function consoleCsv(rows: ConsoleRow[]): string {
  const header = ["id", "created_at", "team", "user", "kind", "answer", "public_score", "holdout_score", "description", "filename", "flags"];
  return csvTable(
    header,
    rows.map((r) => [r.id, r.createdAt, r.team, r.user, r.kind, r.answer, r.publicScore, r.holdoutScore, r.description, r.filename, r.flags.join("; ")]),
  );
}
