import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { AppError } from "@/lib/server/platform/errors";

/**
 * The signed-in organizer and the competition they manage, for the two manage pages (setup at
 * `/manage`, operations at `/manage/operations`): a visitor signs in and comes back to `page`;
 * anyone else who does not organize it gets a 404. Read once per request: the metadata and the
 * page share it (React's cache).
 */
export const loadManaged = cache(async (slug: string, page: "" | "/operations") => {
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=/competitions/${slug}/manage${page}`);
  try {
    return { user, competition: await requireOrganizer(user, slug) };
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 403)) notFound();
    throw error;
  }
});

/** A manage page's title: "Setup · Household Power Spikes" (the layout adds "· Quiltboard"). */
export async function manageMetadata(params: Promise<{ slug: string }>, page: "" | "/operations"): Promise<Metadata> {
  const { competition } = await loadManaged((await params).slug, page);
  return { title: `${page ? "Operations" : "Setup"} · ${competition.title}` };
}

/** The operations page's sections, in order: their anchors, which links to the setup page from before the split also reach. */
export const OPERATIONS_SECTIONS = ["submissions", "signals", "health", "registrations", "bans", "announcements", "webhooks", "organizers"];
