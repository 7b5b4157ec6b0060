import type { Metadata } from "next";
import { PageCard } from "../_components/section";
import { SignUpForm } from "../_components/sign-up-form";
import Link from "../_components/link";
import { passwordSignUpOpen } from "@/lib/server/accounts/auth";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <PageCard title="Create your account" intro="Join competitions, form teams and submit predictions, or host a competition of your own.">
      {passwordSignUpOpen() ? (
        <SignUpForm callbackUrl={sameSitePath(callbackUrl, "") || null} />
      ) : (
        <p className="text-slate-700">
          This deployment does not create accounts with a password.{" "}
          <Link href="/signin" className="font-medium text-indigo-700 hover:underline">
            Sign in through one of its sign-in providers
          </Link>{" "}
          instead: your first sign-in creates your account.
        </p>
      )}
    </PageCard>
  );
}
