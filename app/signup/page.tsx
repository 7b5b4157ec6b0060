import type { Metadata } from "next";
import { SignUpForm } from "../_components/sign-up-form";
import { sameSitePath } from "@/lib/validation/urls";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <div className="mx-auto max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">Create your account</h1>
      <p className="mb-6 text-sm text-slate-600">Join competitions, form teams and submit predictions, or host a competition of your own.</p>
      <SignUpForm callbackUrl={sameSitePath(callbackUrl, "") || null} />
    </div>
  );
}
