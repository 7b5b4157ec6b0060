import "server-only";
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/server/platform/env";

// scrypt (Percival 2009; RFC 7914), memory-hard: N = 2^17, r = 8, p = 1, the cost today's guidance
// asks of scrypt (issue 40): 128·N·r = 128 MiB and about four times the CPU of the N = 2^15 it
// replaces (docs/red-team.md has the sign-in figures). A hash states its parameters, so one made with
// older ones still verifies, and is made again with these at the account's next sign-in.
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** The memory one hash may take: its 128·N·r bytes, and room for scrypt's own buffers (OpenSSL refuses more). */
const MAXMEM = 128 * N * R + 64 * 1024;

/**
 * Hashes computed at once per process (QUILTBOARD_PASSWORD_HASHES, default 2): each holds 128 MiB and
 * one of libuv's four threads, which files, compression and DNS share, for a quarter of a second.
 * Sign-ins beyond it wait their turn, so a burst of them costs time, not memory.
 */
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < env().QUILTBOARD_PASSWORD_HASHES) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift(); // the slot goes to the next in line, else it is free
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAXMEM }, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** A self-describing hash: `scrypt$N$r$p$salt$key` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * Checks a password against a stored hash in constant time (false for a malformed hash). A hash
 * with other parameters than today's is checked while the password is hashed with today's beside
 * it: `rehash` is that new hash when the password is right, and the check takes as long as one with
 * a current hash (an account not signed in since the change does not show by its faster answer).
 */
export async function verifyPassword(password: string, stored: string): Promise<{ ok: boolean; rehash: string | null }> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !key) return { ok: false, rehash: null };
  const expected = Buffer.from(key, "base64");
  const current = Number(n) === N && Number(r) === R && Number(p) === P;
  const [actual, rehash] = await Promise.all([derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p)), current ? null : hashPassword(password)]);
  const ok = actual.length === expected.length && timingSafeEqual(actual, expected);
  return { ok, rehash: ok ? rehash : null };
}

/** A hash to verify against when the user does not exist, so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password");
  return dummyHash;
}
