"use client";

import { signIn } from "next-auth/react";
import Link from "./link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi, fieldErrors } from "./api-client";
import { Field, focusFirstError, FormError, SubmitButton } from "./field";
import { rememberReturn } from "./return-to";
import { LINK } from "./tones";
import { rememberSignUp } from "./welcome-notice";
import { PASSWORD_MIN_LENGTH } from "@/lib/validation/accounts";

type SignUpState = { fieldErrors?: Record<string, string>; formError?: string };

/**
 * Sign-up (POST /api/v1/users), then sign-in, then back to `callbackUrl` (the page that asked for an account) or the
 * account page, which says that a verification link was mailed (WelcomeNotice). A field the server refuses takes the focus, so its error is read out with it.
 */
export function SignUpForm({ callbackUrl }: { callbackUrl: string | null }) {
  const router = useRouter();
  const [state, setState] = useState<SignUpState>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setPending(true);
    const form = new FormData(element);
    const result = await callApi("/api/v1/users", { method: "POST", json: { name: form.get("name"), email: form.get("email"), password: form.get("password") } });
    if (!result.ok) {
      // A taken address is the email field's error; a refused sign-up (password accounts switched off, too many) the form's.
      const byField = result.error.code === "conflict" ? { email: result.error.message } : fieldErrors(result.error, ["name", "email", "password"]);
      setPending(false);
      setState(Object.keys(byField).length ? { fieldErrors: byField } : { formError: result.error.message });
      // After React has rendered the errors, so the field is described by its error when focused.
      requestAnimationFrame(() => focusFirstError(element, byField));
      return;
    }
    const signedIn = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    setPending(false);
    if (!signedIn || signedIn.error) return setState({ formError: "Your account was created, but signing in failed. Try signing in." });
    if (callbackUrl) rememberReturn(callbackUrl);
    rememberSignUp(String(form.get("email")), callbackUrl ?? "/account");
    router.push(callbackUrl ?? "/account");
    router.refresh();
  }

  const errors = state.fieldErrors ?? {};
  const signInHref = callbackUrl ? `/signin?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/signin";
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormError message={state.formError} />
      <Field label="Name" name="name" autoComplete="name" required error={errors.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        required
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.password}
      />
      <SubmitButton pending={pending}>Create account</SubmitButton>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href={signInHref} className={LINK}>
          Sign in
        </Link>
      </p>
    </form>
  );
}
