import type { Metadata } from "next";
import Link from "../_components/link";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { describeInvitation } from "@/lib/server/competitions/organizers";
import { AppError, toErrorResponse } from "@/lib/server/platform/errors";
import { invitationSchema } from "@/lib/validation/competitions";
import { AcceptInvitation } from "../_components/accept-invitation";

export const metadata: Metadata = { title: "Invitation to organize" };

// The link of an invitation mail (lib/server/competitions/organizers.ts): what it invites to, and
// a button that accepts it for the signed-in account with the address invited.
export default async function OrganizerInvitationPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  // The link's query parsed here, as POST /api/v1/organizer-invitations/accept parses its body: a malformed token is named, not a 500.
  const parsed = token ? invitationSchema.safeParse({ token }) : null;
  const [user, invitation] = await Promise.all([
    getSessionUser(),
    !parsed
      ? null
      : parsed.success
        ? describeInvitation(parsed.data).catch((error) => (error instanceof AppError ? error : Promise.reject(error)))
        : new AppError("unprocessable_entity", toErrorResponse(parsed.error).body.error.message),
  ]);
  return (
    <div className="mx-auto max-w-md space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Invitation to organize</h1>
      {!invitation ? (
        <p className="text-slate-600">This page opens from the link in an invitation mail.</p>
      ) : invitation instanceof AppError ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {invitation.message}.
        </p>
      ) : (
        <>
          <p className="text-slate-700">
            {invitation.invitedBy} invited {invitation.email} to help organize <strong>{invitation.title}</strong>. Organizers see every raw score, so they cannot take part in the
            competition they run.
          </p>
          {user ? (
            <AcceptInvitation token={token!} />
          ) : (
            <p className="text-sm text-slate-600">
              <Link href={`/signin?callbackUrl=${encodeURIComponent(`/organizer-invitation?token=${token}`)}`} className="font-medium text-indigo-700 hover:underline">
                Sign in
              </Link>{" "}
              with the account of {invitation.email} to accept (or{" "}
              <Link href="/signup" className="font-medium text-indigo-700 hover:underline">
                sign up
              </Link>{" "}
              with that address first).
            </p>
          )}
        </>
      )}
    </div>
  );
}
