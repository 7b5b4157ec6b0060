import Link from "./_components/link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { CompetitionList } from "./_components/competition-list";
import { Section } from "./_components/section";

export const dynamic = "force-dynamic";

export default async function Home() {
  const user = await getSessionUser();
  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-gradient-to-br from-indigo-600 to-indigo-800 px-6 py-10 text-white sm:px-10">
        <h1 className="max-w-2xl text-3xl font-semibold tracking-tight sm:text-4xl">A leaderboard you cannot overfit.</h1>
        <p className="mt-4 max-w-2xl">
          Every submission is scored on a private holdout through Thresholdout, with noise calibrated by Bayesian differential privacy — so scores stay honest even when teams probe
          the leaderboard, and even when test rows are correlated. Each team sees its overfitting budget.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href="/competitions" className="rounded-md bg-white px-4 py-2 font-medium text-indigo-700 hover:bg-indigo-50">
            Browse competitions
          </Link>
          {/* Anyone with an account can host: creating a competition makes its creator its organizer. */}
          <Link href={user ? "/competitions/new" : "/signup?callbackUrl=/competitions/new"} className="rounded-md px-4 py-2 font-medium ring-1 ring-white/60 hover:bg-white/10">
            Host a competition
          </Link>
          {!user && (
            <Link href="/signup" className="rounded-md px-4 py-2 font-medium ring-1 ring-white/60 hover:bg-white/10">
              Create an account
            </Link>
          )}
        </div>
      </section>
      <Section id="competitions" title="Competitions" variant="plain">
        <CompetitionList headingLevel={3} pager={(page) => `/competitions?page=${page}`} />
      </Section>
    </div>
  );
}
