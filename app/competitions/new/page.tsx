import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { CreateCompetitionForm } from "../../_components/create-competition-form";

export const metadata: Metadata = { title: "New competition" };

export default async function NewCompetitionPage() {
  if (!(await getSessionUser())) redirect("/signin?callbackUrl=/competitions/new");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">New competition</h1>
        <p className="text-slate-600">It starts as a draft: upload the solution, choose the correlation model and the mechanism, then publish.</p>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <CreateCompetitionForm />
      </div>
    </div>
  );
}
