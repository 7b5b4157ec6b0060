import Link from "./link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { listCompetitions } from "@/lib/server/competitions/competitions";
import { formatDate, metricTitle } from "./format";
import { StatusBadge } from "./status-badge";

/** The competitions the viewer may see, as cards; each card's title is a heading one level below the section it sits in. */
export async function CompetitionList({ headingLevel }: { headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const competitions = await listCompetitions(await getSessionUser());
  if (competitions.length === 0) {
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-500">No competitions yet.</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Competitions">
      {competitions.map((c) => (
        <li key={c.slug} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <div className="flex items-start justify-between gap-3">
            <Heading className="text-base font-semibold text-slate-900">
              <Link href={`/competitions/${c.slug}`} className="hover:underline">
                {c.title}
              </Link>
            </Heading>
            <StatusBadge status={c.status} />
          </div>
          <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
            <div>
              <dt className="text-slate-500">Metric</dt>
              <dd className="font-medium">{metricTitle(c.metric)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{c.status === "closed" ? "Closed" : "Closes"}</dt>
              <dd className="font-medium">{formatDate(c.closedAt ?? c.endsAt)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Teams</dt>
              <dd className="font-medium">{c.teams}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
