import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { runAfterAnswer } from "@/lib/server/platform/background";
import { appLink, message } from "@/lib/server/platform/mail";
import { sendMails } from "@/lib/server/platform/outbox";
import { hashPassword } from "./passwords";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import type { PublicUser } from "./users";
import type { EmailVerificationInput, PasswordResetConfirmInput, PasswordResetRequest } from "@/lib/validation/accounts";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Links sent by mail to prove an address: verification (48 hours) and password reset (1 hour).
 * Each carries 256 random bits; only their SHA-256 is stored, and each works once.
 */
const LIFETIME_MS = { verify: 48 * 3600_000, reset: 3600_000 } as const;
type Purpose = keyof typeof LIFETIME_MS;

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** What a link's mail says around the link: its subject, its text, the button and the closing line. */
type LinkMail = { subject: string; paragraphs: string[]; label: string; page: string; footer: string };

/** Issues a single-use link for `purpose` and mails it to the user's current address, on `mail.page?token=…`. */
async function mailLink(user: { id: string; email: string; name: string }, purpose: Purpose, mail: LinkMail): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const row = await db.emailToken.create({
    data: { userId: user.id, purpose, email: user.email, tokenHash: hash(token), expiresAt: new Date(Date.now() + LIFETIME_MS[purpose]) },
    select: { id: true },
  });
  const { subject, paragraphs, label, page, footer } = mail;
  await sendMails([
    {
      key: `${purpose}:${row.id}`,
      kind: "account",
      mail: message({ to: user.email, subject, name: user.name, paragraphs, action: { label, url: appLink(`${page}?token=${token}`) }, footer }),
    },
  ]);
}

/** Sends a link that verifies the user's current address (after sign-up, a change of address, or on request). */
export async function sendVerification(user: PublicUser): Promise<void> {
  await mailLink(user, "verify", {
    subject: "Verify your email address for Quiltboard",
    paragraphs: [
      "Please confirm that this address is yours. Some competitions only admit verified addresses, because every team's overfitting budget assumes one account per person.",
    ],
    label: "Verify my address",
    page: "/verify-email",
    footer: "The link works once and expires in 48 hours. If you did not create an account, ignore this mail.",
  });
}

/** POST /api/v1/me/verification: another verification mail, at most a few an hour. */
export async function resendVerification(user: PublicUser): Promise<void> {
  const { emailVerifiedAt } = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { emailVerifiedAt: true } });
  if (emailVerifiedAt) throw new AppError("conflict", "your address is already verified");
  await consumeRateLimit("verificationMail", user.id);
  await sendVerification(user);
}

/** The link's row, or a 422 when it is unknown, of another purpose, used, expired, or sent to an address the account no longer has. */
async function findLink(client: Pick<Prisma.TransactionClient, "emailToken">, token: string, purpose: Purpose) {
  const row = await client.emailToken.findUnique({ where: { tokenHash: hash(token) }, include: { user: { select: { email: true } } } });
  const dead = !row || row.purpose !== purpose || row.usedAt !== null || row.expiresAt <= new Date() || row.email !== row.user.email;
  if (dead) throw deadLink();
  return row;
}

function deadLink(): AppError {
  return new AppError("unprocessable_entity", "this link is not valid any more: it was used, it expired, or a newer one was sent; ask for a new one");
}

/**
 * Redeems a link inside `tx` and applies `data` to its account, only while the account still has
 * the address the link was sent to: the address is checked in the same UPDATE that writes, so a
 * change of address that commits first leaves the link dead (422) and one that commits after
 * leaves the new address unverified. Nothing is written when either step fails.
 */
async function redeem(tx: Prisma.TransactionClient, token: string, purpose: Purpose, data: Prisma.UserUpdateManyMutationInput) {
  const row = await findLink(tx, token, purpose);
  const used = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (used.count === 0) throw new AppError("unprocessable_entity", "this link was just used");
  const { count } = await tx.user.updateMany({ where: { id: row.userId, email: row.email }, data });
  if (count === 0) throw deadLink();
  return row;
}

/** POST /api/v1/email-verification `{token}`: the address the link was sent to is verified, if it is still the account's. */
export async function verifyEmail({ token }: EmailVerificationInput): Promise<{ email: string }> {
  const row = await db.$transaction((tx) => redeem(tx, token, "verify", { emailVerifiedAt: new Date() }));
  return { email: row.email };
}

/**
 * POST /api/v1/password-reset `{email}`: mails a reset link when an account has this address. The
 * answer is the same either way (no one learns which addresses have accounts), and so is its time:
 * the request is checked and counted (limited per client address and per address asked about),
 * and the lookup, the link and the mail happen after the answer, for every address alike. Timed
 * on the request (a mail takes ~160 ms), an address with an account answered in 191 ms and one
 * without in 29.
 */
export async function requestPasswordReset({ email }: PasswordResetRequest, client: string): Promise<void> {
  await consumeRateLimit("passwordResetIp", client);
  await consumeRateLimit("passwordReset", email);
  runAfterAnswer("password-reset mail", async () => {
    const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true } });
    if (!user) return;
    await mailLink(user, "reset", {
      subject: "Reset your Quiltboard password",
      paragraphs: ["Someone (we hope you) asked to reset the password of your Quiltboard account."],
      label: "Choose a new password",
      page: "/reset-password",
      footer: "The link works once and expires in one hour. If you did not ask for it, ignore this mail: your password stays as it is.",
    });
  });
}

/**
 * POST /api/v1/password-reset/confirm `{token, password}`: sets the new password, signs every session
 * of the account out and revokes its API tokens (whoever had the account may have made some). The
 * mail reached its owner, so the address counts as verified. The link is looked at before the new
 * password is hashed (~60 ms of CPU, not spent on dead links) and redeemed with the write.
 */
export async function confirmPasswordReset({ token, password }: PasswordResetConfirmInput): Promise<void> {
  await findLink(db, token, "reset");
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    const row = await redeem(tx, token, "reset", { passwordHash, sessionVersion: { increment: 1 }, emailVerifiedAt: new Date() });
    await tx.emailToken.updateMany({ where: { userId: row.userId, purpose: "reset", usedAt: null }, data: { usedAt: new Date() } });
    await tx.apiToken.updateMany({ where: { userId: row.userId, revokedAt: null }, data: { revokedAt: new Date() } });
  });
}
