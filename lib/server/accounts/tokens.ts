import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import type { PublicUser, SignedIn } from "./users";
import type { TokenNameInput } from "@/lib/validation/accounts";
import { isUuid } from "@/lib/validation/ids";

const PREFIX = "qb_";

/** SHA-256 of a token: tokens carry 256 random bits, so a fast hash is enough (no KDF needed). */
function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type TokenSummary = { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

/**
 * Creates a personal API token (limited per user and per client address) for a caller whose
 * password or session was just checked; the token itself is returned once and never stored. The
 * row is written only while the account still has the session version read with that check, under
 * a share lock on the account's row: a password reset or change that commits first leaves nothing
 * written (401), and one in flight waits for this insert, and then revokes the token with the others.
 */
export async function createToken(caller: SignedIn, { name }: TokenNameInput, client: string): Promise<{ id: string; name: string; token: string }> {
  const { user, sessionVersion } = caller;
  await consumeRateLimit("tokensIp", client);
  await consumeRateLimit("tokens", user.id);
  const token = PREFIX + randomBytes(32).toString("base64url");
  const [created] = await db.$queryRaw<{ id: string; name: string }[]>`
    INSERT INTO api_tokens (id, user_id, name, token_hash, prefix)
    SELECT gen_random_uuid(), u.id, ${name}, ${hashToken(token)}, ${token.slice(0, PREFIX.length + 6)}
    FROM (SELECT id FROM users WHERE id = ${user.id}::uuid AND session_version = ${sessionVersion} FOR SHARE) u
    RETURNING id, name`;
  if (!created) throw new AppError("unauthorized", "your password was changed meanwhile, which signs everything out: sign in with the new one");
  return { ...created, token };
}

export async function listTokens(userId: string): Promise<TokenSummary[]> {
  return db.apiToken.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Revokes one of the user's tokens; 404 if it is not theirs. */
export async function revokeToken(userId: string, tokenId: string): Promise<void> {
  if (!isUuid(tokenId)) throw new AppError("not_found", "no such active token");
  const { count } = await db.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError("not_found", "no such active token");
}

/** The owner of a live token, or null for an unknown or revoked one. */
export async function findUserByToken(token: string): Promise<PublicUser | null> {
  if (!token.startsWith(PREFIX)) return null;
  // The token and its user in one round trip: this runs on every API request.
  const [found] = await db.$queryRaw<(PublicUser & { tokenId: string; revoked: boolean; lastUsedAt: Date | null })[]>`
    SELECT t.id AS "tokenId", t.revoked_at IS NOT NULL AS revoked, t.last_used_at AS "lastUsedAt", u.id, u.email, u.name, u.role::text AS role
    FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ${hashToken(token)}`;
  if (!found || found.revoked) return null;
  // Record use at most once a minute, so reads do not turn into a write each.
  if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: found.tokenId }, data: { lastUsedAt: new Date() } });
  }
  return { id: found.id, email: found.email, name: found.name, role: found.role };
}
