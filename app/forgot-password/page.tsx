import type { Metadata } from "next";
import { ApiForm } from "../_components/api-form";

export const metadata: Metadata = { title: "Forgot your password?" };

export default function ForgotPasswordPage() {
  return (
    <div className="mx-auto max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">Forgot your password?</h1>
      <p className="text-sm text-slate-600">Enter the address of your account: we mail you a link to choose a new password.</p>
      <ApiForm
        method="POST"
        path="/api/v1/password-reset"
        fields={[{ label: "Email", name: "email", type: "email", autoComplete: "email" }]}
        submitLabel="Send the link"
        success="If an account has this address, a link to choose a new password is on its way. It works once, for one hour."
      />
    </div>
  );
}
