import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { SignUpForm } from "../_components/sign-up-form";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <PageCard title="Create your account" intro="Join competitions, form teams and submit predictions, or host a competition of your own.">
      <SignUpForm callbackUrl={sameSitePath(callbackUrl, "") || null} />
    </PageCard>
  );
}
