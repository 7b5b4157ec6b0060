import "server-only";
import { db, isUniqueViolation } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser, SignedIn } from "./users";

/**
 * Sign-in through a provider (GitHub, Google, an OpenID Connect provider: auth.ts), and how an
 * identity there becomes an account here. An identity is named for good by its provider and the
 * provider's subject (OIDC `sub`, GitHub's numeric id) and belongs to one account.
 *
 * The address decides only at the identity's first sign-in, and only when both sides verified it:
 * - an account with that address whose owner proved it here (a verification or reset link) is
 *   linked to the identity, if the provider says it verified the address too;
 * - an account whose address is not verified here, or a provider that does not vouch for it, is
 *   refused: an identity claiming someone's address must never take their account over;
 * - with no account at that address, an account is made (no password; its owner may set one with a
 *   reset link), its address verified, if the provider verified it.
 * A provider with `domains` admits verified addresses of those domains only.
 */

/** What a provider said about the person at this sign-in. */
export type ProviderIdentity = {
  provider: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  username: string | null;
  /** the provider's allowed email domains (an OIDC provider's configuration); empty: any */
  domains: string[];
};

const PUBLIC = { id: true, email: true, name: true, role: true } as const;

/** Why a provider's sign-in was refused, and what the sign-in page says (`/signin?error=CODE`: a code, so nobody can make the page say anything else). */
export const SIGN_IN_REFUSALS = {
  no_verified_email: "Your account with that provider has no verified email address. Verify one there, or sign in another way.",
  domain_not_allowed: "That sign-in admits addresses of the organization's own domains only.",
  account_unverified:
    "An account with that address exists, but its address was never verified here. Sign in with its password and verify the address (or reset the password from the mail), then sign in this way to link it.",
} as const;
export type SignInRefusal = keyof typeof SIGN_IN_REFUSALS;

export class SignInRefused extends AppError {
  constructor(readonly reason: SignInRefusal) {
    super("forbidden", SIGN_IN_REFUSALS[reason]);
  }
}

/** The account this identity signs in to, linking or creating it as the rules above say; SignInRefused otherwise. */
export async function signInWithIdentity(identity: ProviderIdentity): Promise<PublicUser> {
  const { provider, subject, name, username } = identity;
  const email = identity.email?.trim().toLowerCase() || null;
  const known = await db.identity.findUnique({ where: { provider_subject: { provider, subject } }, select: { user: { select: PUBLIC } } });
  const seen = { email, emailVerified: identity.emailVerified, username, lastSignInAt: new Date() };
  if (known) {
    await db.identity.update({ where: { provider_subject: { provider, subject } }, data: seen });
    return known.user;
  }
  if (!email || !identity.emailVerified) throw new SignInRefused("no_verified_email");
  const domain = email.slice(email.lastIndexOf("@") + 1);
  if (identity.domains.length && !identity.domains.includes(domain)) throw new SignInRefused("domain_not_allowed");
  try {
    return await db.$transaction(async (tx) => {
      const account = await tx.user.findUnique({ where: { email }, select: { ...PUBLIC, emailVerifiedAt: true } });
      if (account && !account.emailVerifiedAt) throw new SignInRefused("account_unverified");
      const user = account
        ? { id: account.id, email: account.email, name: account.name, role: account.role }
        : await tx.user.create({ data: { email, name: (name ?? username ?? email.split("@")[0]).slice(0, 80), passwordHash: null, emailVerifiedAt: new Date() }, select: PUBLIC });
      await tx.identity.create({ data: { userId: user.id, provider, subject, ...seen } });
      return user;
    });
  } catch (error) {
    // Two first sign-ins of one identity at once: the other made the link; this one signs in to it.
    if (isUniqueViolation(error)) return signInWithIdentity(identity);
    throw error;
  }
}

/** The account an identity was linked to (the session's user after a provider's sign-in) with its session version, or null. */
export async function accountOfIdentity(provider: string, subject: string): Promise<SignedIn | null> {
  const found = await db.identity.findUnique({ where: { provider_subject: { provider, subject } }, select: { user: { select: { ...PUBLIC, sessionVersion: true } } } });
  if (!found) return null;
  const { sessionVersion, ...user } = found.user;
  return { user, sessionVersion };
}

/** An identity linked to an account, as its owner's account page lists it. */
export type LinkedIdentity = { provider: string; username: string | null; email: string | null; emailVerified: boolean; linkedAt: string; lastSignInAt: string };

/** The identities linked to `user`'s account, oldest first (`provider` is the configuration's id). */
export async function listIdentities(user: PublicUser): Promise<LinkedIdentity[]> {
  const rows = await db.identity.findMany({
    where: { userId: user.id },
    orderBy: { createdAt: "asc" },
    select: { provider: true, username: true, email: true, emailVerified: true, createdAt: true, lastSignInAt: true },
  });
  return rows.map(({ createdAt, lastSignInAt, ...r }) => ({ ...r, linkedAt: createdAt.toISOString(), lastSignInAt: lastSignInAt.toISOString() }));
}
