import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { SignInForm } from "../_components/sign-in-form";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const asked = sameSitePath(callbackUrl, "");
  return (
    <PageCard title="Sign in">
      <SignInForm callbackUrl={asked || "/competitions"} signUpHref={asked ? `/signup?callbackUrl=${encodeURIComponent(asked)}` : "/signup"} />
    </PageCard>
  );
}
