import type { Metadata } from "next";
import { CompetitionList } from "../_components/competition-list";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Competitions" };

export default function CompetitionsPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Competitions</h1>
      <CompetitionList />
    </div>
  );
}
