import "server-only";
import { db } from "./db";
import { requireOrganizer } from "./competitions";
import { csvCell } from "./leaderboard";
import { type SybilSignals, sybilSignals } from "./sybil";
import type { PublicUser } from "./users";
import { getMetric } from "@/lib/metrics/registry";
import type { MetricParams } from "@/lib/metrics/types";

/** One submission as organizers see it: raw scores included (display units). */
export type ConsoleRow = {
  id: string;
  createdAt: string;
  team: string;
  teamId: string;
  user: string;
  kind: string;
  answer: number | null;
  publicScore: number;
  holdoutScore: number;
  description: string | null;
  filename: string | null;
  flags: string[];
};

/**
 * GET …/submissions/all (organizers): every submission, newest first, with team, user, time, the
 * released answer, the raw public and holdout scores, the note and flags (a disqualified team, a
 * near-duplicate of another team's submissions), and the signals the flags come from.
 */
export async function listAllSubmissions(user: PublicUser, slug: string): Promise<{ direction: "higher" | "lower"; displayPrecision: number; submissions: ConsoleRow[]; signals: SybilSignals }> {
  const competition = await requireOrganizer(user, slug);
  const metric = getMetric(competition.metric, competition.metricParams as MetricParams);
  const [rows, signals] = await Promise.all([
    db.submission.findMany({
      where: { competitionId: competition.id },
      orderBy: { createdAt: "desc" },
      select: { id: true, createdAt: true, kind: true, answer: true, publicScore: true, holdoutScore: true, description: true, filename: true, user: { select: { name: true } }, team: { select: { id: true, name: true, disqualifiedAt: true } } },
    }),
    sybilSignals(competition),
  ]);
  const twins = new Map<string, string[]>();
  for (const { teams } of signals.nearIdentical) {
    twins.set(teams[0], [...(twins.get(teams[0]) ?? []), teams[1]]);
    twins.set(teams[1], [...(twins.get(teams[1]) ?? []), teams[0]]);
  }
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
      publicScore: metric.toDisplay(s.publicScore),
      holdoutScore: metric.toDisplay(s.holdoutScore),
      description: s.description,
      filename: s.filename,
      flags: [...(s.team.disqualifiedAt ? ["team disqualified"] : []), ...(twins.get(s.team.name) ?? []).map((t) => `near-duplicate of team ${t}`)],
    })),
    signals,
  };
}

export function consoleCsv(rows: ConsoleRow[]): string {
  const header = ["id", "created_at", "team", "user", "kind", "answer", "public_score", "holdout_score", "description", "filename", "flags"];
  const lines = rows.map((r) => [r.id, r.createdAt, r.team, r.user, r.kind, r.answer, r.publicScore, r.holdoutScore, r.description, r.filename, r.flags.join("; ")].map(csvCell).join(","));
  return [header.join(","), ...lines].join("\r\n") + "\r\n";
}
