import "server-only";
import { env } from "./env";
import { log } from "./log";
import nodemailer, { type Transporter } from "nodemailer";

/**
 * Mail through SMTP: SMTP_URL (`smtp://user:pass@host:port`, or `smtps://…`) and MAIL_FROM. Mail
 * follows an action that has already happened (an account created, a request decided), so a mail
 * that cannot be sent — no SMTP_URL, or the server refuses — is logged (its subject and the reason,
 * never the link) and the caller carries on; the user can ask for the link again.
 */
let transport: Transporter | undefined;

export type Mail = { to: string; subject: string; text: string; html: string };

export async function sendMail(mail: Mail): Promise<void> {
  const { SMTP_URL: url, MAIL_FROM: from } = env();
  if (!url) {
    log.warn({ subject: mail.subject }, "SMTP_URL is not set: a mail was not sent");
    return;
  }
  transport ??= nodemailer.createTransport(url);
  try {
    await transport.sendMail({ from, ...mail });
  } catch (error) {
    log.error({ subject: mail.subject, err: (error as Error).message }, "a mail could not be sent");
  }
}

/** An absolute link into this app, built from NEXTAUTH_URL (the public address; http://localhost:$PORT by default). */
export function appLink(pathAndQuery: string): string {
  return new URL(pathAndQuery, env().NEXTAUTH_URL).toString();
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
