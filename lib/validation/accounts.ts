import { z } from "zod";
import "./messages";
import { text } from "./text";

const email = text().trim().toLowerCase().email({ message: "enter a valid email address" }).max(254);
/** The shortest password accepted (the sign-up and password forms say it before anyone types). */
export const PASSWORD_MIN_LENGTH = 10;

const password = text()
  .min(PASSWORD_MIN_LENGTH, { message: `use at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(200, { message: "use at most 200 characters" });

export const signUpSchema = z.object({
  email,
  password,
  name: text().trim().min(1, { message: "enter your name" }).max(80, { message: "use at most 80 characters" }),
});

export type SignUpInput = z.infer<typeof signUpSchema>;

export const tokenNameSchema = z.object({
  name: text().trim().min(1, { message: "name the token, e.g. “laptop”" }).max(60, { message: "use at most 60 characters" }),
});
export type TokenNameInput = z.infer<typeof tokenNameSchema>;

export const passwordChangeSchema = z.object({
  currentPassword: text().min(1, { message: "enter your current password" }).max(200),
  newPassword: password,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const emailChangeSchema = z.object({ email, currentPassword: text().min(1, { message: "enter your current password" }).max(200) });
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

export const passwordResetRequestSchema = z.object({ email });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** POST /api/v1/email-verification: the token of the verification mail's link. */
export const emailVerificationSchema = z.object({ token: text().min(1).max(200) });
export type EmailVerificationInput = z.infer<typeof emailVerificationSchema>;

export const passwordResetConfirmSchema = z.object({ token: text().min(1).max(200), password });
export type PasswordResetConfirmInput = z.infer<typeof passwordResetConfirmSchema>;

/**
 * The kinds of notification mail a user can turn off, on the account page or by the one-click link
 * in its mails (lib/server/accounts/notifications.ts), with what a page calls it. Mail about the account itself
 * (verification, password reset, invitations, a disqualification) is always sent.
 */
export const NOTIFICATION_KINDS = {
  announcements: "announcements and changed settings",
  merge_requests: "merge requests",
  approvals: "decisions on requests to take part",
  reminders: "deadline reminders",
  results: "final standings",
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

const NOTIFICATION_KIND_LIST = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];

/** GET /api/v1/me/notifications: for each kind, whether the user gets its mail. */
export const notificationSettingsSchema = z.strictObject(Object.fromEntries(NOTIFICATION_KIND_LIST.map((k) => [k, z.boolean()])) as Record<NotificationKind, z.ZodBoolean>);
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** PUT /api/v1/me/notifications: the kinds to switch on (true) or off (false); the others stay as they are. */
export const notificationUpdateSchema = notificationSettingsSchema.partial();
export type NotificationUpdate = z.infer<typeof notificationUpdateSchema>;

/** POST /api/v1/unsubscribe: the query of a mail's unsubscribe link. */
export const unsubscribeSchema = z.object({
  user: z.uuid(),
  kind: z.enum(NOTIFICATION_KIND_LIST as [NotificationKind, ...NotificationKind[]], { message: "no such kind of mail" }),
  sig: text().min(1).max(100),
});
export type UnsubscribeQuery = z.infer<typeof unsubscribeSchema>;
