import type { Metadata } from "next";
import Link from "../_components/link";
import { ApiForm } from "../_components/api-form";
import { PageCard } from "../_components/section";
import { PASSWORD_MIN_LENGTH } from "@/lib/validation/accounts";

export const metadata: Metadata = { title: "Choose a new password" };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <PageCard title="Choose a new password">
      {token ? (
        <ApiForm
          method="POST"
          path="/api/v1/password-reset/confirm"
          fields={[
            {
              label: "New password",
              name: "password",
              type: "password",
              autoComplete: "new-password",
              minLength: PASSWORD_MIN_LENGTH,
              hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
            },
          ]}
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
    </PageCard>
  );
}
