import type { Metadata } from "next";
import { ApiForm } from "../_components/api-form";
import { PageCard } from "../_components/section";

export const metadata: Metadata = { title: "Forgot your password?" };

export default function ForgotPasswordPage() {
  return (
    <PageCard title="Forgot your password?" intro="Enter the address of your account: we mail you a link to choose a new password.">
      <ApiForm
        method="POST"
        path="/api/v1/password-reset"
        fields={[{ label: "Email", name: "email", type: "email", autoComplete: "email" }]}
        submitLabel="Send the link"
        success="If an account has this address, a link to choose a new password is on its way. It works once, for one hour."
      />
    </PageCard>
  );
}
