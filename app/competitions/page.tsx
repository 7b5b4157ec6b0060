import type { Metadata } from "next";
import Form from "next/form";
import Link from "../_components/link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { CARDS_PER_PAGE, CompetitionList } from "../_components/competition-list";
import { sentence } from "@/lib/format";
import { BUTTON, NOTE } from "../_components/tones";
import { competitionListQuerySchema } from "@/lib/validation/competitions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Competitions" };

const CONTROL = "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm";

/**
 * The competitions, searched and filtered on the server: the form is a GET of this page, so a
 * filtered list is a link to share (`?q=power&status=open&mine=true&page=2`, GET /api/v1/competitions's
 * parameters).
 */
export default async function CompetitionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await getSessionUser();
  const raw = Object.fromEntries(Object.entries(await searchParams).flatMap(([key, value]) => (typeof value === "string" && value !== "" ? [[key, value]] : [])));
  const parsed = competitionListQuerySchema.safeParse({ ...raw, pageSize: CARDS_PER_PAGE });
  const query = parsed.success ? parsed.data : null;
  const link = (page: number) => `/competitions?${new URLSearchParams({ ...raw, page: String(page) })}`;
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Competitions</h1>
        <Link href={user ? "/competitions/new" : "/signup?callbackUrl=/competitions/new"} className={BUTTON.primary}>
          {user ? "New competition" : "Host a competition"}
        </Link>
      </div>
      <Form action="/competitions" role="search" aria-label="Competitions" className="flex flex-col gap-3 sm:flex-row sm:items-end" data-testid="competition-filters">
        <div className="flex-1 space-y-1">
          <label htmlFor="competition-q" className="block text-sm font-medium text-slate-700">
            Title
          </label>
          <input id="competition-q" name="q" type="search" defaultValue={raw.q ?? ""} maxLength={200} placeholder="e.g. power spikes" className={CONTROL} />
        </div>
        <div className="space-y-1">
          <label htmlFor="competition-status" className="block text-sm font-medium text-slate-700">
            Status
          </label>
          <select id="competition-status" name="status" defaultValue={raw.status ?? ""} className={CONTROL}>
            <option value="">Any</option>
            <option value="open">Open</option>
            <option value="upcoming">Upcoming</option>
            <option value="closed">Closed</option>
          </select>
        </div>
        {user && (
          <label className="flex items-center gap-2 py-2 text-sm text-slate-700">
            <input type="checkbox" name="mine" value="true" defaultChecked={raw.mine === "true"} /> Mine only
          </label>
        )}
        <button type="submit" className={BUTTON.secondary}>
          Search
        </button>
      </Form>
      {query ? (
        <CompetitionList headingLevel={2} query={query} pager={link} />
      ) : (
        <p role="alert" className={NOTE.error}>
          {sentence(parsed.error!.issues[0].message)} <Link href="/competitions">Show every competition</Link>
        </p>
      )}
    </div>
  );
}
