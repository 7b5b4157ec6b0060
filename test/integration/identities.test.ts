import { randomBytes } from "node:crypto";
import NextAuth from "next-auth";
import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authOptions, signInProviders } from "@/lib/server/accounts/auth";
import { authenticate, createUser, registerUser } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";
import { type OidcProvider, startOidcProvider } from "@/scripts/oidc";
import { requestRegistration } from "@/lib/server/competitions/access";
import { listAnnouncements } from "@/lib/server/competitions/announcements";
import { listAllSubmissions } from "@/lib/server/boards/console";
import { sybilSignals } from "@/lib/server/boards/sybil";
import { getVisibleCompetition } from "@/lib/server/competitions/competitions";
import { updateCompetition } from "@/lib/server/competitions/settings";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam, joinTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { publishedCompetition, rejection, stream } from "@/test/support/factories";
import { updateCompetitionSchema } from "@/lib/validation/competitions";

// Sign-in through an OpenID Connect provider, for real: the npm package oidc-provider on 127.0.0.1
// (scripts/oidc-provider.mjs), and the app's own next-auth options driven through next-auth's core
// as the route /api/auth/* drives them: the sign-in POST, the provider's login form and consent,
// the callback, and the session cookie it sets.

const APP = "http://localhost:3000"; // NEXTAUTH_URL as the integration tests read it (unset: its default)
let provider: OidcProvider;
const saved = { oidc: process.env.QUILTBOARD_OIDC_PROVIDERS, signUp: process.env.QUILTBOARD_PASSWORD_SIGNUP };

beforeAll(async () => {
  provider = await startOidcProvider([`${APP}/api/auth/callback/lab`, `${APP}/api/auth/callback/corp`]);
  const common = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret };
  process.env.QUILTBOARD_OIDC_PROVIDERS = JSON.stringify([
    { id: "lab", name: "Lab SSO", ...common },
    { id: "corp", name: "Corp", ...common, domains: ["corp.example"] },
  ]);
});
/** Sets `name` back as it was: assigning undefined to process.env would write the string "undefined". */
function restore(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
afterAll(async () => {
  restore("QUILTBOARD_OIDC_PROVIDERS", saved.oidc);
  restore("QUILTBOARD_PASSWORD_SIGNUP", saved.signUp);
  await provider?.stop();
});

type Jar = Map<string, string>;
/** A request that follows nothing, with `jar`'s cookies, keeping the ones it sets. */
async function visit(jar: Jar, url: URL, form?: Record<string, string>): Promise<Response> {
  const answer = await fetch(url, {
    redirect: "manual",
    method: form ? "POST" : "GET",
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
  });
  for (const cookie of answer.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return answer;
}

/**
 * The redirect flow a browser follows, signing in at the provider as `login`, through the app's
 * next-auth options (next-auth's own handler, as /api/auth/* runs it): the session's user id (null
 * without a session) and where next-auth sends the browser at the end.
 */
async function signInThrough(providerId: string, login: string): Promise<{ userId: string | null; redirect: string }> {
  const app: Jar = new Map();
  const options = authOptions();
  const call = async (method: "GET" | "POST", path: string[], input: { body?: Record<string, string>; query?: Record<string, string> } = {}) => {
    const headers = new Map<string, string | string[]>();
    let body: unknown;
    const res = {
      status: () => res,
      setHeader: (name: string, value: string | string[]) => (headers.set(name.toLowerCase(), value), res),
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      end: () => {},
      json: (value: unknown) => void (body = value),
      send: (value: unknown) => void (body = value),
    };
    const req = { method, query: { nextauth: path, ...input.query }, body: input.body, headers: { host: new URL(APP).host }, cookies: Object.fromEntries(app) };
    await NextAuth(req as never, res as never, options);
    for (const cookie of [headers.get("set-cookie") ?? []].flat()) {
      const [pair] = cookie.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), decodeURIComponent(pair.slice(pair.indexOf("=") + 1))];
      if (value) app.set(name, value);
      else app.delete(name);
    }
    return { location: headers.get("location") as string | undefined, body };
  };
  const { csrfToken } = (await call("GET", ["csrf"])).body as { csrfToken: string };
  const start = await call("POST", ["signin", providerId], { body: { csrfToken, callbackUrl: `${APP}/competitions` } });
  let url = new URL(start.location!);
  expect(url.origin).toBe(provider.issuer);
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");

  const browser: Jar = new Map(); // the provider's cookies
  for (let step = 0; url.origin === provider.issuer; step++) {
    if (step > 10) throw new Error("the provider's flow did not end");
    const answer = await visit(browser, url);
    if (answer.status === 200) {
      // The provider's login form, then its consent form.
      const page = await answer.text();
      const action = new URL(page.match(/action="([^"]+)"/)![1], provider.issuer);
      const form: Record<string, string> = page.includes('name="login"') ? { prompt: "login", login, password: "any password" } : { prompt: "consent" };
      url = new URL((await visit(browser, action, form)).headers.get("location")!, provider.issuer);
    } else url = new URL(answer.headers.get("location")!, provider.issuer);
  }
  expect(url.pathname).toBe(`/api/auth/callback/${providerId}`);
  const done = await call("GET", ["callback", providerId], { query: Object.fromEntries(url.searchParams) });
  const session = app.get("next-auth.session-token");
  const token = session ? await decode({ token: session, secret: process.env.NEXTAUTH_SECRET! }) : null;
  return { userId: token?.sub ?? null, redirect: done.location! };
}

const address = (domain = "lab.example") => `sso-${randomBytes(5).toString("hex")}@${domain}`;
const identitiesOf = (userId: string) => db.identity.findMany({ where: { userId }, select: { provider: true, subject: true, emailVerified: true } });

describe("sign-in through an OpenID Connect provider", () => {
  it("lists only the configured providers, and a first sign-in makes a verified account without a password that the next sign-in finds", async () => {
    expect(signInProviders()).toEqual([
      { id: "lab", name: "Lab SSO" },
      { id: "corp", name: "Corp" },
    ]);
    const email = address();
    const first = await signInThrough("lab", email);
    expect(first.redirect).toBe(`${APP}/competitions`);
    const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true, name: true, passwordHash: true, emailVerifiedAt: true } });
    expect(first.userId).toBe(user.id);
    expect(user).toMatchObject({ name: `${email.split("@")[0]} at the lab`, passwordHash: null });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(await identitiesOf(user.id)).toEqual([{ provider: "lab", subject: email, emailVerified: true }]);
    expect(await authenticate(email, "any password", "test-client")).toBeNull(); // no password to guess
    expect((await signInThrough("lab", email)).userId).toBe(user.id);
  });

  it("links an existing account only when both sides verified its address", async () => {
    // Verified here and at the provider: the identity is linked to the account.
    const verified = await createUser({ email: address(), password: "a long enough password", name: "Vera" });
    await db.user.update({ where: { id: verified.id }, data: { emailVerifiedAt: new Date() } });
    expect((await signInThrough("lab", verified.email)).userId).toBe(verified.id);
    expect(await identitiesOf(verified.id)).toHaveLength(1);

    // The provider does not vouch for the address: refused, whatever account has it.
    const victim = await createUser({ email: address(), password: "a long enough password", name: "Victim" });
    await db.user.update({ where: { id: victim.id }, data: { emailVerifiedAt: new Date() } });
    const takeover = await signInThrough("lab", `unverified:${victim.email}`);
    expect(takeover).toEqual({ userId: null, redirect: "/signin?error=no_verified_email" });
    expect(await identitiesOf(victim.id)).toEqual([]);
    expect(await db.user.count({ where: { email: victim.email } })).toBe(1);

    // Verified at the provider, never here: refused too (an unproven sign-up must not decide who owns the address).
    const unproven = await createUser({ email: address(), password: "a long enough password", name: "Unproven" });
    expect(await signInThrough("lab", unproven.email)).toEqual({ userId: null, redirect: "/signin?error=account_unverified" });
    expect(await identitiesOf(unproven.id)).toEqual([]);

    // No account and no verified address: none is made.
    const stranger = address();
    expect((await signInThrough("lab", `unverified:${stranger}`)).redirect).toBe("/signin?error=no_verified_email");
    expect(await db.user.count({ where: { email: stranger } })).toBe(0);
  });

  it("a provider with domains admits its domains' addresses only", async () => {
    expect(await signInThrough("corp", address("elsewhere.example"))).toEqual({ userId: null, redirect: "/signin?error=domain_not_allowed" });
    const inside = address("corp.example");
    const { userId } = await signInThrough("corp", inside);
    expect((await db.user.findUniqueOrThrow({ where: { id: userId! }, select: { email: true } })).email).toBe(inside);
  });

  it("password sign-up switched off refuses a new password account (page and API), while a provider still makes accounts", async () => {
    process.env.QUILTBOARD_PASSWORD_SIGNUP = "0";
    try {
      const refused = await rejection(registerUser({ email: address(), password: "a long enough password", name: "Late" }, "test-client"));
      expect(refused.status).toBe(403);
      expect(refused.message).toBe("this deployment does not create accounts with a password: sign in through one of its sign-in providers");
      expect((await signInThrough("lab", address())).userId).not.toBeNull();
    } finally {
      restore("QUILTBOARD_PASSWORD_SIGNUP", saved.signUp);
    }
  });
});

/** A password account at `email` whose address was verified here. */
async function verifiedAccount(email: string) {
  const account = await createUser({ email, password: "a long enough password", name: "Password player" });
  await db.user.update({ where: { id: account.id }, data: { emailVerifiedAt: new Date() } });
  return account;
}

describe("a competition that admits people signed in through a named provider", () => {
  it("takes only a configured provider, names it as configured, and announces the change saying what changed", async () => {
    const { owner, slug } = await publishedCompetition({ settings: { dailySubmissionLimit: 50 } });
    const unknown = await rejection(updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { identity: { provider: "github" } } })));
    expect([unknown.status, unknown.message]).toEqual([422, 'access.identity.provider: no sign-in provider "github" (configured here: lab, corp)']);
    const named = await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { identity: { provider: "lab", name: "Anything", domains: ["Lab.Example"] } } }));
    expect(named.access).toEqual({
      requireVerifiedEmail: false,
      allowedEmailDomains: [],
      approval: false,
      identity: { provider: "lab", name: "Lab SSO", domains: ["lab.example"] },
    });
    const [notice] = await listAnnouncements((await getVisibleCompetition(null, slug)).id, 1);
    expect(notice).toMatchObject({
      kind: "settings",
      title: "Changed: who may take part",
      body: "The organizers changed the competition's settings:\n\nWho may take part: anyone with an account → people signed in through Lab SSO with an address at lab.example",
    });
  });

  it("refuses a team, a registration and a submission to whoever has no such identity, and admits them once they signed in through it", async () => {
    const { owner, slug } = await publishedCompetition({ settings: { dailySubmissionLimit: 50 } });
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { identity: { provider: "lab", domains: ["lab.example"] } } }));

    // A verified password account with no identity: refused, with what to do.
    const player = await verifiedAccount(address());
    const refused = await rejection(createTeam(player, slug, { name: `Linked ${player.id.slice(0, 6)}`, acceptRules: true }));
    expect([refused.status, refused.code, refused.message, refused.details]).toEqual([
      403,
      "identity_required",
      "this competition admits people signed in through Lab SSO with an address at lab.example, and your account has no Lab SSO identity: sign in with Lab SSO (the sign-in page's \"Continue with Lab SSO\") using this account's address, which links it",
      { provider: "lab", name: "Lab SSO", domains: ["lab.example"] },
    ]);
    expect(await db.teamMember.count({ where: { userId: player.id } })).toBe(0);

    // After a sign-in through the provider with this account's address, linked, it may take part.
    expect((await signInThrough("lab", player.email)).userId).toBe(player.id);
    const team = await createTeam(player, slug, { name: `Linked ${player.id.slice(0, 6)}`, acceptRules: true });

    // An identity of that provider at another domain does not meet the rule.
    const elsewhere = address("elsewhere.example");
    const outsider = (await signInThrough("lab", elsewhere)).userId!;
    const outsiderUser = { id: outsider, email: elsewhere, name: "Outsider", role: "user" as const };
    const wrongDomain = await rejection(joinTeam(outsiderUser, slug, { inviteCode: team.inviteCode }));
    expect([wrongDomain.code, wrongDomain.message.split(": sign in")[0]]).toEqual([
      "identity_required",
      "this competition admits people signed in through Lab SSO with an address at lab.example, and your Lab SSO identity has no verified address at lab.example",
    ]);

    // It submits; once its identity is unlinked, the next submission is refused and spends nothing.
    await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "linked" })));
    await db.identity.deleteMany({ where: { userId: player.id } });
    const before = await db.team.findUniqueOrThrow({ where: { id: team.id }, select: { submissionCount: true, budgetRemaining: true } });
    expect((await rejection(submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "unlinked" }))))).code).toBe("identity_required");
    expect(await db.team.findUniqueOrThrow({ where: { id: team.id }, select: { submissionCount: true, budgetRemaining: true } })).toEqual(before);

    // With approval on too, asking to take part needs the identity first.
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { approval: true, identity: { provider: "lab", domains: ["lab.example"] } } }));
    const applicant = await verifiedAccount(address());
    expect((await rejection(requestRegistration(applicant, await getVisibleCompetition(null, slug)))).code).toBe("identity_required");
    expect(await db.registration.count({ where: { userId: applicant.id } })).toBe(0);
    await signInThrough("lab", applicant.email);
    expect(await requestRegistration(applicant, await getVisibleCompetition(null, slug))).toEqual({ status: "pending", created: true });
  });
});

describe("the manage page's signals of one person behind accounts that follow one name pattern", () => {
  it("groups Lab SSO identities and addresses named base, base1, base2+tag in different teams, and one verified address behind two teams' accounts, for organizers only", async () => {
    const { owner, slug } = await publishedCompetition({ settings: { dailySubmissionLimit: 50 } });
    // A base of letters only (trailing digits would be stripped), its own in this run.
    const base = `pat${[...randomBytes(5)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;
    const logins = [`${base}@lab.example`, `${base}1@lab.example`, `${base}.2+alt@lab.example`];
    const players = [];
    for (const [i, login] of logins.entries()) {
      const { userId } = await signInThrough("lab", login);
      const player = { id: userId!, email: login, name: `Player ${i} ${base}`, role: "user" as const };
      await db.user.update({ where: { id: player.id }, data: { name: player.name } });
      await createTeam(player, slug, { name: `Team ${i} ${base}`, acceptRules: true });
      players.push(player);
    }
    // Someone else's account, in a fourth team, whose GitHub identity's verified address is the first player's.
    const other = await verifiedAccount(`other-${base}@mail.example`);
    await createTeam(other, slug, { name: `Team 3 ${base}`, acceptRules: true });
    await db.identity.create({ data: { userId: other.id, provider: "github", subject: `gh-${base}`, email: logins[0], emailVerified: true, username: `gh${base}` } });

    const signals = await sybilSignals(await getVisibleCompetition(null, slug));
    const member = (i: number, handle: string) => ({ name: `Player ${i} ${base}`, team: `Team ${i} ${base}`, handle });
    // Handles in code-point order: "." before digits before "@".
    expect(signals.samePattern).toEqual([
      { provider: null, base, accounts: [member(2, logins[2]), member(1, logins[1]), member(0, logins[0])] },
      { provider: "Lab SSO", base, accounts: [member(0, base), member(2, `${base}.2+alt`), member(1, `${base}1`)] },
    ]);
    expect(signals.sharedAddress).toEqual([
      {
        address: logins[0],
        accounts: [
          { name: players[0].name, team: `Team 0 ${base}`, provider: null },
          { name: other.name, team: `Team 3 ${base}`, provider: "github" },
        ],
      },
    ]);
    // Organizers read them (the manage page, GET …/submissions/all); a competitor gets a 403.
    expect((await listAllSubmissions(owner, slug)).signals).toEqual(signals);
    expect((await rejection(listAllSubmissions(players[1], slug))).status).toBe(403);
  });
});
