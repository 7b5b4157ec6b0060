import "server-only";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { appLink, message } from "@/lib/server/platform/mail";
import { sendMails } from "@/lib/server/platform/outbox";
import type { CompetitionRow, OrganizedCompetition } from "./competitions";
import { signInProviders } from "@/lib/server/accounts/auth";
import type { PublicUser } from "@/lib/server/accounts/users";
import { describeIdentityRule } from "@/lib/format";
import { type Access, accessSchema, type BanInput, type IdentityRule, type RegistrationDecision } from "@/lib/validation/competitions";
import { isUuid } from "@/lib/validation/ids";
import type { BanView, RegistrationView } from "@/lib/responses";

/**
 * Who may take part in a competition, set by its organizers (also after publishing): every team's
 * overfitting budget assumes one person behind one account, so a competition can admit verified
 * addresses only, addresses at some domains only, people who signed in through a named provider
 * (with an address it verified at some domains), or only people an organizer approved.
 */
export function accessOf(competition: Pick<CompetitionRow, "access">): Access {
  return accessSchema.parse(competition.access ?? {});
}

function domainAllowed(email: string, domains: string[]): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.length === 0 || domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/**
 * `access` with its identity rule's provider checked against this deployment's sign-in providers
 * and named as configured (what the pages and notices say); a 422 naming the configured ones when
 * it is not one of them. Applied to what an organizer sends, never to what is stored: a provider
 * taken out of the configuration later leaves the rule, which then nobody new can meet.
 */
export function withConfiguredProvider(access: Access): Access {
  if (!access.identity) return access;
  const configured = signInProviders();
  const provider = configured.find((p) => p.id === access.identity!.provider);
  if (!provider) {
    const offered = configured.length ? `configured here: ${configured.map((p) => p.id).join(", ")}` : "this deployment configures none";
    const message = `no sign-in provider "${access.identity.provider}" (${offered})`;
    throw new AppError("unprocessable_entity", `access.identity.provider: ${message}`, [{ path: "access.identity.provider", message }]);
  }
  return { ...access, identity: { provider: provider.id, name: provider.name, domains: access.identity.domains } };
}

/**
 * Whether `identities` (a user's identities of the rule's provider) meet `rule`: one of them, and
 * with domains, one whose address the provider verified at one of them or a subdomain.
 */
export function meetsIdentityRule(rule: IdentityRule, identities: { email: string | null; emailVerified: boolean }[]): boolean {
  return identities.some((i) => rule.domains.length === 0 || (i.email !== null && i.emailVerified && domainAllowed(i.email, rule.domains)));
}

/**
 * 403 `identity_required` when `user` has no identity that meets the competition's identity rule;
 * checked with the other rules (requireAccess), when asking to take part, and at each submission
 * (an identity may be unlinked, or the rule set, after the team was joined). Its details name the
 * provider, for a client to offer the sign-in.
 */
export async function requireIdentity(user: Pick<PublicUser, "id">, access: Access): Promise<void> {
  const missing = await missingIdentity(user, access);
  if (!missing) return;
  const { rule, name, problem } = missing;
  throw new AppError("identity_required", `${problem}: sign in with ${name} (the sign-in page's "Continue with ${name}") using this account's address, which links it`, {
    provider: rule.provider,
    name,
    domains: rule.domains,
  });
}

/**
 * What `user` lacks of the identity rule (`problem`: the rule and what is missing, in words), or null
 * when they meet it or there is none: requireIdentity's refusal, and the Team tab's notice beside its sign-in button.
 */
export async function missingIdentity(user: Pick<PublicUser, "id">, access: Access): Promise<{ rule: IdentityRule; name: string; problem: string } | null> {
  const rule = access.identity;
  if (!rule) return null;
  const identities = await db.identity.findMany({ where: { userId: user.id, provider: rule.provider }, select: { email: true, emailVerified: true } });
  if (meetsIdentityRule(rule, identities)) return null;
  const name = rule.name ?? rule.provider;
  const why = identities.length ? `your ${name} identity has no verified address at ${rule.domains.join(", ")}` : `your account has no ${name} identity`;
  return { rule, name, problem: `this competition admits people signed in through ${describeIdentityRule(rule)}, and ${why}` };
}

/** 403 when the organizers banned `userId` from the competition (checked wherever access is, and when submitting). */
export async function requireNotBanned(userId: string, competitionId: string): Promise<void> {
  const ban = await db.competitionBan.findUnique({ where: { competitionId_userId: { competitionId, userId } }, select: { reason: true } });
  if (ban) throw bannedError(ban.reason);
}

/** The 403 a banned user gets, with the organizers' reason. */
export function bannedError(reason: string): AppError {
  return new AppError("forbidden", `the organizers banned you from this competition: ${reason}`);
}

/**
 * Throws the 403 of the first rule `user` does not meet (a ban, then requireRules'); checked when
 * creating or joining a team and for the competition's data files.
 */
export async function requireAccess(user: PublicUser, competition: Pick<CompetitionRow, "id" | "access">): Promise<void> {
  await requireNotBanned(user.id, competition.id);
  await requireRules(user, competition);
}

/**
 * The one rule of who may take part, as the organizers set it now: throws the 403 of the first
 * access rule `user` does not meet (`domain_not_allowed`, `email_unverified`, `identity_required`,
 * `approval_required`). Checked when joining (requireAccess), at every submission (a rule set, an
 * address changed or an identity unlinked after the team was joined: scoring/submit.ts) and for each
 * member a merge brings together (teams/merges.ts). An allowed-domain rule admits verified addresses
 * only, whether or not "verified only" is set: anyone can type an address at any domain, so only a
 * proven one says where its owner studies or works (docs/api.md, `access`).
 */
export async function requireRules(user: Pick<PublicUser, "id" | "email">, competition: Pick<CompetitionRow, "id" | "access">): Promise<void> {
  const access = accessOf(competition);
  const domains = access.allowedEmailDomains;
  if (!domainAllowed(user.email, domains)) {
    throw new AppError("domain_not_allowed", `this competition admits addresses at ${domains.join(", ")} only`);
  }
  if (access.requireVerifiedEmail || domains.length > 0) {
    const { emailVerifiedAt } = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { emailVerifiedAt: true } });
    if (!emailVerifiedAt) {
      const rule = access.requireVerifiedEmail ? "verified addresses only" : `addresses at ${domains.join(", ")} once they are verified`;
      throw new AppError("email_unverified", `this competition admits ${rule}: open the link we mailed you (or send it again from your account page)`);
    }
  }
  await requireIdentity(user, access);
  if (access.approval) {
    const registration = await db.registration.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { status: true } });
    if (registration?.status !== "approved") {
      const state = registration ? `your request is ${registration.status}` : "ask to take part first (POST …/registrations, or the button on the competition's page)";
      throw new AppError("approval_required", `the organizers approve who takes part in this competition: ${state}`);
    }
  }
}

/** POST …/registrations: asks to take part (once; asking again returns the request as it stands); one who cannot meet the identity rule is told at once (403). */
export async function requestRegistration(user: PublicUser, competition: CompetitionRow): Promise<{ status: string; created: boolean }> {
  const access = accessOf(competition);
  if (!access.approval) throw new AppError("conflict", "this competition does not need approval: create or join a team");
  if (competition.status === "closed") throw new AppError("conflict", "this competition has closed");
  await requireIdentity(user, access);
  const existing = await db.registration.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { status: true } });
  if (existing) return { status: existing.status, created: false };
  await db.registration.create({ data: { competitionId: competition.id, userId: user.id } });
  return { status: "pending", created: true };
}

export async function myRegistration(user: PublicUser, competitionId: string): Promise<string | null> {
  const r = await db.registration.findUnique({ where: { competitionId_userId: { competitionId, userId: user.id } }, select: { status: true } });
  return r?.status ?? null;
}

/** The requests to take part, pending first (organizers). */
export async function listRegistrations(competition: OrganizedCompetition): Promise<RegistrationView[]> {
  const rows = await db.registration.findMany({
    where: { competitionId: competition.id },
    orderBy: [{ createdAt: "asc" }],
    select: { id: true, status: true, createdAt: true, user: { select: { name: true, email: true } } },
  });
  const order: Record<string, number> = { pending: 0, approved: 1, refused: 2 };
  return rows.sort((a, b) => order[a.status] - order[b.status]).map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** PUT …/registrations/{id} `{status}` (organizers): approves or refuses, and tells the applicant by mail. */
export async function decideRegistration(competition: OrganizedCompetition, id: string, { status }: RegistrationDecision): Promise<RegistrationView> {
  if (!isUuid(id)) throw new AppError("not_found", "no such request");
  const found = await db.registration.findFirst({ where: { id, competitionId: competition.id }, select: { id: true } });
  if (!found) throw new AppError("not_found", "no such request");
  const r = await db.registration.update({
    where: { id },
    data: { status, decidedAt: new Date() },
    select: { id: true, status: true, createdAt: true, decidedAt: true, userId: true, user: { select: { name: true, email: true } } },
  });
  const approved = status === "approved";
  const mail = message({
    to: r.user.email,
    subject: `${approved ? "You may take part in" : "Your request for"} ${competition.title}`,
    name: r.user.name,
    paragraphs: [
      approved
        ? `The organizers of ${competition.title} approved your request: create or join a team to take part.`
        : `The organizers of ${competition.title} did not approve your request to take part.`,
    ],
    action: { label: "Open the competition", url: appLink(`/competitions/${competition.slug}`) },
  });
  // Each decision is its own event: an organizer may refuse a request and approve it later.
  await sendMails([{ key: `registration:${r.id}:${r.decidedAt!.getTime()}`, kind: "approvals", userId: r.userId, mail }]);
  return { id: r.id, status: r.status, createdAt: r.createdAt.toISOString(), user: r.user };
}

/** The users banned from the competition, newest first (organizers). */
export async function listBans(competition: OrganizedCompetition): Promise<BanView[]> {
  const rows = await db.competitionBan.findMany({
    where: { competitionId: competition.id },
    orderBy: { createdAt: "desc" },
    select: { reason: true, createdAt: true, user: { select: { id: true, name: true, email: true } } },
  });
  return rows.map((r) => ({ userId: r.user.id, name: r.user.name, email: r.user.email, reason: r.reason, createdAt: r.createdAt.toISOString() }));
}

/**
 * POST …/bans `{email, reason}` (organizers): the user can no longer create or join a team, download
 * the data or submit in this competition; their team stays (disqualify it separately if it should
 * go). Banning again replaces the reason. Only someone who takes part (is in a team, or asked to
 * take part) can be banned, and anyone else gets the same 404: a ban tells its organizers nothing
 * about which addresses have accounts elsewhere, or which accounts are admins (who never take part).
 */
export async function banUser(competition: OrganizedCompetition, { email, reason }: BanInput): Promise<BanView> {
  const taking = { some: { competitionId: competition.id } };
  const user = await db.user.findFirst({ where: { email, role: "user", OR: [{ memberships: taking }, { registrations: taking }] }, select: { id: true } });
  if (!user) throw new AppError("not_found", `no one with the address ${email} takes part in this competition (in a team, or asking to take part)`);
  await db.competitionBan.upsert({
    where: { competitionId_userId: { competitionId: competition.id, userId: user.id } },
    create: { competitionId: competition.id, userId: user.id, reason },
    update: { reason },
  });
  return (await listBans(competition)).find((b) => b.userId === user.id)!;
}

/** DELETE …/bans/{userId} (organizers): lifts a ban. */
export async function liftBan(competition: OrganizedCompetition, userId: string): Promise<void> {
  if (!isUuid(userId)) throw new AppError("not_found", "no such ban");
  const { count } = await db.competitionBan.deleteMany({ where: { competitionId: competition.id, userId } });
  if (count === 0) throw new AppError("not_found", "no such ban");
}
