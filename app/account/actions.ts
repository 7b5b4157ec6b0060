"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { AppError } from "@/lib/server/platform/errors";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { getSession, getSessionUser } from "@/lib/server/accounts/auth";
import { createToken, revokeToken } from "@/lib/server/accounts/tokens";
import { tokenNameSchema } from "@/lib/validation/accounts";

export type CreateTokenState = { ok: boolean; token?: string; fieldErrors?: { name?: string } };

export async function createTokenAction(_: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const ended = { ok: false, fieldErrors: { name: "Your session has ended; sign in again." } };
  const caller = await getSession();
  if (!caller) return ended;
  const parsed = tokenNameSchema.safeParse({ name: form.get("name") });
  if (!parsed.success) return { ok: false, fieldErrors: { name: parsed.error.issues[0].message } };
  try {
    const { token } = await createToken(caller, parsed.data, clientAddress({ headers: await headers() }));
    revalidatePath("/account");
    return { ok: true, token };
  } catch (error) {
    if (error instanceof AppError && error.code === "unauthorized") return ended; // the password was reset meanwhile
    throw error;
  }
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  const user = await getSessionUser();
  if (!user) return;
  await revokeToken(user.id, String(form.get("tokenId")));
  revalidatePath("/account");
}
