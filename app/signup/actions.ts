"use server";

import { headers } from "next/headers";
import { AppError } from "@/lib/server/platform/errors";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { registerUser } from "@/lib/server/accounts/users";
import { signUpSchema } from "@/lib/validation/accounts";

export type SignUpState = { ok: boolean; fieldErrors?: Record<string, string>; formError?: string };

export async function signUp(_: SignUpState, form: FormData): Promise<SignUpState> {
  const parsed = signUpSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return { ok: false, fieldErrors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])) };
  }
  try {
    await registerUser(parsed.data, clientAddress({ headers: await headers() }));
    return { ok: true };
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") return { ok: false, fieldErrors: { email: error.message } };
    if (error instanceof AppError && error.code === "forbidden") return { ok: false, formError: error.message };
    throw error;
  }
}
