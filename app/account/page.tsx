import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { listTokens } from "@/lib/server/accounts/tokens";
import { getMe } from "@/lib/server/accounts/users";
import { ApiForm } from "../_components/api-form";
import { CreateTokenForm, RevokeTokenButton } from "../_components/api-tokens";
import { LocalTime } from "../_components/local-time";
import { CELL, DataTable, hiddenBelow } from "../_components/data-table";
import { Section } from "../_components/section";
import { ClientSetup } from "../_components/client-setup";
import { appLink } from "@/lib/server/platform/mail";
import { PASSWORD_MIN_LENGTH } from "@/lib/validation/accounts";
import { getNotificationSettings } from "@/lib/server/accounts/notifications";
import { listIdentities } from "@/lib/server/accounts/identities";
import { signInProviders } from "@/lib/server/accounts/auth";
import { NotificationSettingsForm } from "../_components/notification-settings";

export const metadata: Metadata = { title: "Account" };

/** The account's credentials, each changed with the current password (docs/api.md, PUT /api/v1/me/…). */
const CREDENTIAL_FORMS = [
  {
    id: "password",
    title: "Password",
    path: "/api/v1/me/password",
    fields: [
      { label: "Current password", name: "currentPassword", type: "password", autoComplete: "current-password" },
      {
        label: "New password",
        name: "newPassword",
        type: "password",
        autoComplete: "new-password",
        minLength: PASSWORD_MIN_LENGTH,
        hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
      },
    ],
    submitLabel: "Change password",
    success: "Your password was changed.",
  },
  {
    id: "email",
    title: "Email address",
    path: "/api/v1/me/email",
    fields: [
      { label: "New email address", name: "email", type: "email", autoComplete: "email" },
      { label: "Password", name: "currentPassword", type: "password", autoComplete: "current-password" },
    ],
    submitLabel: "Change address",
    success: "Your address was changed: open the link we mailed to it to verify it. Reload to see it here.",
  },
];

export default async function AccountPage() {
  const user = await getSessionUser();
  if (!user) redirect("/signin?callbackUrl=/account");
  const [tokens, me, notifications, identities] = await Promise.all([listTokens(user.id), getMe(user), getNotificationSettings(user), listIdentities(user)]);
  const providerName = new Map(signInProviders().map((p) => [p.id, p.name]));
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">{user.name}</h1>
        <p className="text-slate-600">
          {user.email}{" "}
          {me.emailVerified ? (
            <span data-testid="email-status" className="ml-1 rounded bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
              Verified
            </span>
          ) : (
            <span data-testid="email-status" className="ml-1 rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">
              Not verified
            </span>
          )}
        </p>
        {!me.emailVerified && (
          <div className="mt-3">
            <p className="mb-2 text-sm text-slate-600">We mailed you a link to verify this address. Some competitions admit verified addresses only.</p>
            <ApiForm method="POST" path="/api/v1/me/verification" fields={[]} submitLabel="Send the link again" success="Sent: check your mail." />
          </div>
        )}
        {user.role === "admin" && <p className="mt-2 inline-block rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">Administrator</p>}
      </section>
      <Section
        id="tokens"
        title="API tokens"
        description={
          <>
            Use a token with <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> to submit from scripts. Tokens are stored hashed.
          </>
        }
      >
        <CreateTokenForm appUrl={appLink("/").replace(/\/$/, "")} />
        <ClientSetup />
        {tokens.length > 0 && (
          <DataTable caption="Your API tokens" columns={[{ label: "Name" }, { label: "Token" }, { label: "Created", from: "sm" }, { label: "Actions", srOnly: true }]}>
            {tokens.map((t) => (
              <tr key={t.id} data-testid="token-row">
                <td className={`${CELL.list} font-medium`}>{t.name}</td>
                <td className={`${CELL.list} font-mono text-slate-600`}>{t.prefix}…</td>
                <td className={`${CELL.list} ${hiddenBelow("sm")} text-slate-600`}>
                  <LocalTime at={t.createdAt.toISOString()} shown="date" />
                </td>
                <td className={`${CELL.list} text-right`}>{t.revokedAt ? <span className="text-slate-500">Revoked</span> : <RevokeTokenButton id={t.id} name={t.name} />}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section
        id="identities"
        title="Linked sign-in"
        description="The accounts at sign-in providers that sign you in here. An identity is linked at its first sign-in, only through an address both sides verified."
      >
        {identities.length ? (
          <DataTable
            caption="Your linked identities"
            columns={[{ label: "Provider" }, { label: "Identity" }, { label: "Linked", from: "sm" }, { label: "Last sign-in", from: "sm" }]}
          >
            {identities.map((i) => (
              <tr key={`${i.provider}-${i.linkedAt}`} data-testid="identity-row">
                <td className={`${CELL.list} font-medium`}>{providerName.get(i.provider) ?? i.provider}</td>
                <td className={CELL.list}>
                  {[i.username, i.email].filter(Boolean).join(" · ") || "—"}
                  {i.email && !i.emailVerified && <span className="text-slate-600"> (address not verified by the provider)</span>}
                </td>
                <td className={`${CELL.list} ${hiddenBelow("sm")} text-slate-600`}>
                  <LocalTime at={i.linkedAt} shown="date" />
                </td>
                <td className={`${CELL.list} ${hiddenBelow("sm")} text-slate-600`}>
                  <LocalTime at={i.lastSignInAt} shown="date" />
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p className="text-sm text-slate-600" data-testid="no-identities">
            {providerName.size
              ? `None yet: sign in with ${[...providerName.values()].join(" or ")} from the sign-in page to link one.`
              : "This deployment has no sign-in providers."}
          </p>
        )}
      </Section>
      <Section
        id="notifications"
        title="Notifications"
        description="The mail you get about the competitions you take part in; the link at the end of each such mail turns its kind off too. Mail about your account itself (verification, password resets, invitations) is always sent."
      >
        <NotificationSettingsForm settings={notifications} />
      </Section>
      {CREDENTIAL_FORMS.map(({ id, title, ...form }) => (
        <Section key={id} id={id} title={title}>
          <ApiForm method="PUT" {...form} />
        </Section>
      ))}
    </div>
  );
}
