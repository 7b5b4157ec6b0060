import type { Metadata } from "next";
import Link from "next/link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { CompetitionList } from "../_components/competition-list";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Competitions" };

export default async function CompetitionsPage() {
  const user = await getSessionUser();
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">Competitions</h1>
        {user && (
          <Link href="/competitions/new" className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
            New competition
          </Link>
        )}
      </div>
      <CompetitionList />
    </div>
  );
}
