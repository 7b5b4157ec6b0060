import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { closedForEntries } from "@/lib/server/competitions/lifecycle";
import { AppError } from "@/lib/server/platform/errors";
import { getMyTeam } from "@/lib/server/teams/teams";

/**
 * What the competition's header and every tab need: the viewer, the competition (404 for a draft
 * they do not organize), whether they organize it, their team, and whether it takes entries now.
 * Read once per request: the layout and the page share it (React's cache).
 */
export const loadCompetition = cache(async (slug: string) => {
  const viewer = await getSessionUser();
  let competition;
  try {
    competition = await getVisibleCompetition(viewer, slug);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  const [organizer, team] = await Promise.all([isOrganizer(viewer, competition.id), viewer && competition.status !== "draft" ? getMyTeam(viewer, slug) : null]);
  const now = new Date();
  return {
    viewer,
    competition,
    organizer,
    team,
    now,
    /** teams may form and submit now */
    open: closedForEntries(competition, now) === null,
    /** closed, and late submissions are taken (exact scores on a separate board) */
    late: competition.status === "closed" && competition.lateSubmissions,
  };
});

/** A tab's title: "Leaderboard · Household Power Spikes" (the layout adds "· Quiltboard"); the overview's is the competition's name. */
export async function tabMetadata(params: Promise<{ slug: string }>, tab?: string): Promise<Metadata> {
  const { competition } = await loadCompetition((await params).slug);
  return { title: tab ? `${tab} · ${competition.title}` : competition.title };
}
