import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { VerifyEmail } from "../_components/verify-email";

export const metadata: Metadata = { title: "Verify your address" };

// The link of the verification mail: opening it in a browser verifies the address.
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <PageCard title="Verify your address">
      {token ? (
        <VerifyEmail token={token} />
      ) : (
        <p className="text-slate-600">This page opens from the link in the verification mail. You can send the mail again from your account page.</p>
      )}
    </PageCard>
  );
}
