"use client";

import { signIn } from "next-auth/react";
import Link from "./link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, SubmitButton } from "./field";
import { ProviderSignInButton } from "./provider-sign-in-button";
import { BUTTON } from "./tones";

/**
 * Sign-in, then on to `callbackUrl`: with email and password, or through one of `providers` (a
 * redirect to it and back); `signUpHref` keeps that destination for someone who has no account yet
 * (null where password sign-up is off), `refusal` says why a provider's sign-in was refused.
 */
export function SignInForm({
  callbackUrl,
  signUpHref,
  providers,
  refusal,
}: {
  callbackUrl: string;
  signUpHref: string | null;
  providers: { id: string; name: string }[];
  refusal?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | undefined>(refusal);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    setPending(false);
    if (!result || result.error)
      return setError(result?.error?.startsWith("too many") ? `Too many attempts: ${result.error.split(": ").slice(1).join(": ")}` : "Wrong email or password.");
    router.push(callbackUrl);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormError message={error} />
      {providers.length > 0 && (
        <div className="space-y-2">
          {providers.map((p) => (
            <ProviderSignInButton key={p.id} id={p.id} callbackUrl={callbackUrl} className={`w-full ${BUTTON.secondary}`}>
              Continue with {p.name}
            </ProviderSignInButton>
          ))}
          <p className="text-center text-sm text-slate-600">or with your email and password</p>
        </div>
      )}
      <Field label="Email" name="email" type="email" autoComplete="email" required />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <SubmitButton pending={pending}>Sign in</SubmitButton>
      <p className="text-center text-sm">
        <Link href="/forgot-password" className="font-medium text-indigo-700 hover:underline">
          Forgot your password?
        </Link>
      </p>
      {signUpHref && (
        <p className="text-center text-sm text-slate-600">
          New here?{" "}
          <Link href={signUpHref} className="font-medium text-indigo-700 hover:underline">
            Create an account
          </Link>
        </p>
      )}
    </form>
  );
}
