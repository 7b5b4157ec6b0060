"use client";

import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { signUp, type SignUpState } from "../signup/actions";
import { Field, FormError, SubmitButton } from "./field";

export function SignUpForm() {
  const router = useRouter();
  const [state, setState] = useState<SignUpState>({ ok: false });
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const form = new FormData(event.currentTarget);
    const result = await signUp(state, form);
    if (!result.ok) {
      setPending(false);
      return setState(result);
    }
    const signedIn = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    setPending(false);
    if (!signedIn || signedIn.error) return setState({ ok: false, formError: "Your account was created, but signing in failed. Try signing in." });
    router.push("/account");
    router.refresh();
  }

  const errors = state.fieldErrors ?? {};
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormError message={state.formError} />
      <Field label="Name" name="name" autoComplete="name" required error={errors.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
      <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={10} required error={errors.password} />
      <SubmitButton pending={pending}>Create account</SubmitButton>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link href="/signin" className="font-medium text-indigo-700 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
