import type { Metadata } from "next";
import Link from "../_components/link";
import { ApiForm } from "../_components/api-form";

export const metadata: Metadata = { title: "Choose a new password" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <div className="mx-auto max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Choose a new password</h1>
      {token ? (
        <ApiForm
          method="POST"
          path="/api/v1/password-reset/confirm"
          fields={[{ label: "New password", name: "password", type: "password", autoComplete: "new-password", minLength: 10 }]}
          extra={{ token }}
          submitLabel="Set the new password"
          success="Your password was changed and every session of your account was signed out. Sign in with the new password."
        />
      ) : (
        <p className="text-slate-600">This page opens from the link in the password-reset mail.</p>
      )}
      <p className="text-sm">
        <Link href="/signin" className="font-medium text-indigo-700 hover:underline">
          Sign in
        </Link>{" "}
        ·{" "}
        <Link href="/forgot-password" className="font-medium text-indigo-700 hover:underline">
          Send a new link
        </Link>
      </p>
    </div>
  );
}
