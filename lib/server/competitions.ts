import "server-only";
import { db } from "./db";

export type CompetitionListItem = {
  slug: string;
  title: string;
  status: "draft" | "published" | "closed";
  metric: string;
  endsAt: string;
  teams: number;
};

/** Every competition, open ones first, then by closing date (SPEC §7 GET /api/v1/competitions). */
export async function listCompetitions(): Promise<CompetitionListItem[]> {
  const rows = await db.competition.findMany({
    orderBy: [{ status: "asc" }, { endsAt: "asc" }],
    select: { slug: true, title: true, status: true, metric: true, endsAt: true },
  });
  const order = { published: 0, draft: 1, closed: 2 } as const;
  return rows
    .sort((a, b) => order[a.status] - order[b.status])
    .map((c) => ({ ...c, endsAt: c.endsAt.toISOString(), teams: 0 }));
}
