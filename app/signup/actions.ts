"use server";

import { AppError } from "@/lib/server/errors";
import { createUser } from "@/lib/server/users";
import { signUpSchema } from "@/lib/validation/accounts";

export type SignUpState = { ok: boolean; fieldErrors?: Record<string, string>; formError?: string };

export async function signUp(_: SignUpState, form: FormData): Promise<SignUpState> {
  const parsed = signUpSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return { ok: false, fieldErrors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])) };
  }
  try {
    await createUser(parsed.data);
    return { ok: true };
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") return { ok: false, fieldErrors: { email: error.message } };
    throw error;
  }
}
