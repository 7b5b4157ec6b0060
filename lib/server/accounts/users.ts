import "server-only";
import { db, isUniqueViolation } from "@/lib/server/platform/db";
import { env } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { consumeRateLimit, refundRateLimit } from "@/lib/server/platform/rate-limit";
import { sendVerification } from "./email-links";
import type { EmailChangeInput, PasswordChangeInput, SignUpInput } from "@/lib/validation/accounts";
import { hasNul } from "@/lib/validation/text";
import type { Me, User } from "@/lib/responses";

/** An account as every service takes its caller (the API's `User`). */
export type PublicUser = User;

const PUBLIC = { id: true, email: true, name: true, role: true } as const;

/** Creates an account from a parsed sign-up (signUpSchema: the address trimmed and lowercased); 409 when the email is taken. */
export async function createUser({ email, password, name }: SignUpInput, role: "admin" | "user" = "user", signupAddress: string | null = null): Promise<PublicUser> {
  try {
    return await db.user.create({ data: { email, name, role, signupAddress, passwordHash: await hashPassword(password) }, select: PUBLIC });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `an account with the email ${email} already exists`);
    }
    throw error;
  }
}

/**
 * Sign-up from a client (the page and POST /api/v1/users): limited per client address, the account
 * created, and a verification link mailed. 403 where QUILTBOARD_PASSWORD_SIGNUP=0 (accounts come
 * from the sign-in providers only, identities.ts).
 */
export async function registerUser(input: SignUpInput, client: string): Promise<PublicUser> {
  if (!env().QUILTBOARD_PASSWORD_SIGNUP) throw new AppError("forbidden", "this deployment does not create accounts with a password: sign in through one of its sign-in providers");
  await consumeRateLimit("signUpIp", client);
  const user = await createUser(input, "user", client);
  await sendVerification(user);
  return user;
}

/**
 * A caller whose password was just checked: the account, and its session version as it was read
 * with the password hash that matched. A password reset or change commits a higher version, so
 * whatever this check leads to (a session, an API token) carries this one and is dead if either
 * committed after the hash was read (accounts/auth.ts, accounts/tokens.ts).
 */
export type SignedIn = { user: PublicUser; sessionVersion: number };

/**
 * The user with these credentials, or null; takes the same time whether or not the email exists.
 * Attempts are limited per client address, and wrong passwords per account and address (429), which
 * stops password guessing across instances without letting a stranger lock the owner out: only
 * the guesser's address is refused, and a right password does not count.
 */
export async function authenticate(email: string, password: string, client: string): Promise<SignedIn | null> {
  await consumeRateLimit("signInIp", client);
  const address = email.trim().toLowerCase();
  const account = await checkPassword(address, password, client);
  return account && { user: { id: account.id, email: account.email, name: account.name, role: account.role }, sessionVersion: account.sessionVersion };
}

/**
 * Checks `password` against the account with `email`, counting a wrong one against the account from
 * `client` (429 past the limit, whether or not this one is right); the account with its password
 * hash and session version (read together, in one row) when it is right, else null. Sign-in and
 * every change that asks for the current password go through it.
 */
async function checkPassword(email: string, password: string, client: string) {
  const subject = `${email} ${client}`;
  await consumeRateLimit("signIn", subject);
  // No address is longer (signUpSchema) or holds a NUL (no text does): such an address is a wrong one, not a query.
  const possible = email.length <= 254 && !hasNul(email);
  const user = possible ? await db.user.findUnique({ where: { email }, select: { ...PUBLIC, passwordHash: true, sessionVersion: true } }) : null;
  const { ok, rehash } = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) return null;
  await refundRateLimit("signIn", subject);
  // A hash with older parameters is replaced by one with today's, unless the password changed meanwhile.
  if (rehash) await db.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash: rehash } });
  return user;
}

/** How many administrators exist (`npm start` says how to create the first). */
export async function countAdmins(): Promise<number> {
  return db.user.count({ where: { role: "admin" } });
}

export async function getUser(id: string): Promise<PublicUser | null> {
  return db.user.findUnique({ where: { id }, select: PUBLIC });
}

/** The user of a session, unless the session is older than the account's last sign-out-everywhere. */
export async function getSessionAccount(id: string, sessionVersion: number): Promise<PublicUser | null> {
  return db.user.findFirst({ where: { id, sessionVersion }, select: PUBLIC });
}

export async function getMe(user: PublicUser): Promise<Me> {
  const { emailVerifiedAt } = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { emailVerifiedAt: true } });
  return { ...user, emailVerified: emailVerifiedAt !== null };
}

/**
 * PUT /api/v1/me/email `{email, currentPassword}`: a new address, unverified until the link mailed
 * to it is opened (the old address's links stop working).
 */
export async function changeEmail(user: PublicUser, { email, currentPassword }: EmailChangeInput, client: string): Promise<Me> {
  if (!(await checkPassword(user.email, currentPassword, client))) throw wrongPassword();
  if (email === user.email) throw new AppError("unprocessable_entity", "that is already your address", [{ path: "email", message: "enter a different address" }]);
  let updated: PublicUser;
  try {
    updated = await db.user.update({ where: { id: user.id }, data: { email, emailVerifiedAt: null }, select: PUBLIC });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `an account with the email ${email} already exists`);
    throw error;
  }
  await sendVerification(updated);
  return { ...updated, emailVerified: false };
}

/**
 * PUT /api/v1/me/password: a new password for a signed-in user who knows the current one. Wrong
 * current passwords count as wrong sign-ins, so this cannot be used to guess it. Every session from
 * before the change is signed out (the session version goes up; the route renews the caller's own
 * session with the version this change wrote, accounts/auth.ts `renewSession`); API tokens stay,
 * each revocable on the account page.
 */
export async function changePassword(user: PublicUser, { currentPassword, newPassword }: PasswordChangeInput, client: string): Promise<SignedIn> {
  if (!(await checkPassword(user.email, currentPassword, client))) throw wrongPassword();
  if (currentPassword === newPassword)
    throw new AppError("unprocessable_entity", "the new password is the same as the current one", [{ path: "newPassword", message: "choose a different password" }]);
  const { sessionVersion } = await db.user.update({
    where: { id: user.id },
    data: { passwordHash: await hashPassword(newPassword), sessionVersion: { increment: 1 } },
    select: { sessionVersion: true },
  });
  return { user, sessionVersion };
}

function wrongPassword(): AppError {
  return new AppError("forbidden", "the current password is not right; nothing was changed");
}
