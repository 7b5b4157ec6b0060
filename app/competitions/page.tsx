import type { Metadata } from "next";
import Link from "../_components/link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { CompetitionList } from "../_components/competition-list";
import { BUTTON } from "../_components/tones";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Competitions" };

export default async function CompetitionsPage() {
  const user = await getSessionUser();
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Competitions</h1>
        <Link href={user ? "/competitions/new" : "/signup?callbackUrl=/competitions/new"} className={BUTTON.primary}>
          {user ? "New competition" : "Host a competition"}
        </Link>
      </div>
      <CompetitionList headingLevel={2} />
    </div>
  );
}
