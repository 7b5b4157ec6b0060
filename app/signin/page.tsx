import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { SignInForm } from "../_components/sign-in-form";
import { passwordSignUpOpen, signInProviders } from "@/lib/server/accounts/auth";
import { SIGN_IN_REFUSALS } from "@/lib/server/accounts/identities";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign in" };

// Email and password, and a button for each sign-in provider this deployment configured. A
// provider's sign-in that was refused comes back here with `error`: a known code says why, and
// anything else (next-auth's own codes) that it did not work; the page never repeats the query's text.
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const asked = sameSitePath(callbackUrl, "");
  const refusal =
    error === undefined ? undefined : Object.hasOwn(SIGN_IN_REFUSALS, error) ? SIGN_IN_REFUSALS[error as keyof typeof SIGN_IN_REFUSALS] : "That sign-in did not work. Try again.";
  return (
    <PageCard title="Sign in">
      <SignInForm
        callbackUrl={asked || "/competitions"}
        signUpHref={passwordSignUpOpen() ? (asked ? `/signup?callbackUrl=${encodeURIComponent(asked)}` : "/signup") : null}
        providers={signInProviders()}
        refusal={refusal}
      />
    </PageCard>
  );
}
