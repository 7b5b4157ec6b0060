import type { Metadata } from "next";
import { SignInForm } from "../_components/sign-in-form";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const asked = sameSitePath(callbackUrl, "");
  return (
    <div className="mx-auto max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-6 text-xl font-semibold">Sign in</h1>
      <SignInForm callbackUrl={asked || "/competitions"} signUpHref={asked ? `/signup?callbackUrl=${encodeURIComponent(asked)}` : "/signup"} />
    </div>
  );
}
