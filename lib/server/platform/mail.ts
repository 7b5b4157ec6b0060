import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { env, required } from "./env";
import { PermanentDeliveryError } from "./errors";
import nodemailer, { type Transporter } from "nodemailer";
import type { NotificationKind } from "@/lib/validation/accounts";

/**
 * Mail over SMTP: SMTP_URL (`smtp://user:pass@host:port`, or `smtps://…`) and MAIL_FROM. Nothing
 * calls `deliverMail` but the outbox (outbox.ts), which queues every mail in PostgreSQL first and
 * retries it until the server takes it; this module builds the messages and hands one to the server.
 */
let transport: { url: string; transporter: Transporter } | undefined;

export type Mail = { to: string; subject: string; text: string; html: string };

/**
 * What a mail is about: a notification its recipient may turn off (lib/validation/accounts.ts
 * NOTIFICATION_KINDS; each such mail carries a one-click `List-Unsubscribe`), or `account` mail that
 * is always sent and has no unsubscribe link (address verification, password reset, an invitation,
 * a publication's commitment, a disqualification).
 */
export type MailKind = "account" | NotificationKind;

/**
 * Hands one mail to the SMTP server; throws when it was not taken (no SMTP_URL, the server is down,
 * or it refused: PermanentDeliveryError for a 5xx reply). `messageId` is the outbox item's, so a mail
 * sent twice after a crash between the server's answer and the outbox's record is recognizably one.
 */
export async function deliverMail(mail: Mail & { messageId: string; headers: Record<string, string> }): Promise<void> {
  const { SMTP_URL: url, MAIL_FROM: from } = env();
  if (!url) throw new Error("SMTP_URL is not set");
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  try {
    await transport.transporter.sendMail({ from, ...mail });
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw new PermanentDeliveryError(`${code}: ${(error as Error).message}`);
    throw error;
  }
}

/** An absolute link into this app, built from NEXTAUTH_URL (the public address; http://localhost:$PORT by default). */
export function appLink(pathAndQuery: string): string {
  return new URL(pathAndQuery, env().NEXTAUTH_URL).toString();
}

/**
 * The signature of an unsubscribe link (`?user=…&kind=…&sig=…`): an HMAC of the
 * user and the kind under NEXTAUTH_SECRET, so the link needs no sign-in and cannot be made for
 * anyone else.
 */
export function unsubscribeSignature(userId: string, kind: string): string {
  return createHmac("sha256", required("NEXTAUTH_SECRET")).update(`unsubscribe\n${userId}\n${kind}`).digest("base64url");
}

/** Whether `signature` is the unsubscribe signature of `userId` and `kind`. */
export function isUnsubscribeSignature(userId: string, kind: string, signature: string): boolean {
  const expected = Buffer.from(unsubscribeSignature(userId, kind));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A user's links out of a kind of notification: `oneClick` for the List-Unsubscribe header (RFC
 * 8058: a mail client POSTs to it), `page` for a person (a page with a button that POSTs to the same).
 */
export function unsubscribeLinks(userId: string, kind: string): { oneClick: string; page: string } {
  const query = new URLSearchParams({ user: userId, kind, sig: unsubscribeSignature(userId, kind) });
  return { oneClick: appLink(`/api/v1/unsubscribe?${query}`), page: appLink(`/unsubscribe?${query}`) };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A short message as plain text and HTML: a greeting, paragraphs, and one button-like link. */
export function message(options: { to: string; subject: string; name: string; paragraphs: string[]; action?: { label: string; url: string }; footer?: string }): Mail {
  const { name, paragraphs, action, footer } = options;
  const text = [
    `Hello ${name},`,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(action ? [`${action.label}: ${action.url}`, ""] : []),
    ...(footer ? [footer, ""] : []),
    "— Quiltboard",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #0f172a; line-height: 1.5">
<p>Hello ${escape(name)},</p>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("\n")}
${action ? `<p><a href="${escape(action.url)}" style="display: inline-block; background: #4f46e5; color: #fff; padding: 8px 16px; border-radius: 6px; text-decoration: none">${escape(action.label)}</a></p>\n<p style="font-size: 13px; color: #475569">Or open ${escape(action.url)}</p>` : ""}
${footer ? `<p style="font-size: 13px; color: #475569">${escape(footer)}</p>` : ""}
<p>— Quiltboard</p>
</body></html>`;
  return { to: options.to, subject: options.subject, text, html };
}
