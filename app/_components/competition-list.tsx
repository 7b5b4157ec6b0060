import Link from "./link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { listCompetitions } from "@/lib/server/competitions/competitions";
import { type CompetitionListQuery, competitionListQuerySchema } from "@/lib/validation/competitions";
import { metricTitle } from "@/lib/format";
import { LocalTime } from "./local-time";
import { StatusBadge } from "./status-badge";

/** Whether a published competition opens for teams later than now. */
function opensLater(c: { status: string; startsAt: string | null }): boolean {
  return c.status === "published" && c.startsAt !== null && Date.parse(c.startsAt) > Date.now();
}

/** Competitions a page of the app shows at once. */
export const CARDS_PER_PAGE = 24;

/**
 * The competitions the viewer may see that match `query` (all of them by default), as cards; each
 * card's title is a heading one level below the section it sits in. `pager` builds the link to
 * another page of them (the competitions page keeps its filters in the link).
 */
export async function CompetitionList({
  headingLevel,
  query = competitionListQuerySchema.parse({ pageSize: CARDS_PER_PAGE }),
  pager,
}: {
  headingLevel: 2 | 3;
  query?: CompetitionListQuery;
  pager?: (page: number) => string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const filtered = Boolean(query.q || query.status || query.mine);
  const { competitions, total, page, pageSize } = await listCompetitions(await getSessionUser(), query);
  if (competitions.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-testid="no-competitions">
        {filtered ? "No competition matches these filters." : total > 0 ? "No competitions on this page." : "No competitions yet."}
      </p>
    );
  }
  const pages = Math.ceil(total / pageSize);
  return (
    <div className="space-y-4">
      {filtered && (
        <p className="text-sm text-slate-600" data-testid="competition-count">
          {total === 1 ? "1 competition matches" : `${total} competitions match`}
          {pages > 1 ? `; page ${page} of ${pages}` : ""}.
        </p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Competitions">
        {competitions.map((c) => (
          <li key={c.slug} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="competition-card">
            <div className="flex items-start justify-between gap-3">
              <Heading className="text-base font-semibold text-slate-900">
                <Link href={`/competitions/${c.slug}`} className="hover:underline">
                  {c.title}
                </Link>
              </Heading>
              <StatusBadge status={opensLater(c) ? "upcoming" : c.status} />
            </div>
            <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-slate-500">Metric</dt>
                <dd className="font-medium">{metricTitle(c.metric)}</dd>
              </div>
              {opensLater(c) ? (
                <div>
                  <dt className="text-slate-500">Opens</dt>
                  <dd className="font-medium">
                    <LocalTime at={c.startsAt!} />
                  </dd>
                </div>
              ) : (
                <div>
                  <dt className="text-slate-500">{c.status === "closed" ? "Closed" : "Closes"}</dt>
                  <dd className="font-medium">
                    <LocalTime at={c.closedAt ?? c.endsAt} />
                  </dd>
                </div>
              )}
              <div>
                <dt className="text-slate-500">Teams</dt>
                <dd className="font-medium">{c.teams}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      {pager && pages > 1 && (
        <nav aria-label="Pages of competitions" className="flex items-center justify-between text-sm">
          {page > 1 ? (
            <Link href={pager(page - 1)} className="font-medium text-indigo-700 underline">
              Previous page
            </Link>
          ) : (
            <span />
          )}
          {page < pages && (
            <Link href={pager(page + 1)} className="font-medium text-indigo-700 underline">
              Next page
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
