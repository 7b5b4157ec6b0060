// Issue 39's races over resets and teams, and its timing gaps, driven through the REST API of the
// app at `base` as a client would: the end-to-end tests require that no race is lost and that no
// gap tells anything, and the hostile bench (scripts/bench/hostile.ts) counts and measures them.
// Mail is read from the run's mail catcher (MAIL_UI_URL).
import { lastMailTo, linkIn } from "./caught-mail";
import { basic, newApiUser, newCompetitor, request, signInWithCookies } from "./rest-client";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NEW_PASSWORD = "the password after the reset";

/** A new account and the token of a password-reset link mailed to it. */
async function accountWithResetLink(base: string) {
  const user = await newApiUser(base, "racer");
  const asked = await request(base, "/api/v1/password-reset", { json: { email: user.email } });
  if (asked.status !== 202) throw new Error(`POST /api/v1/password-reset → ${asked.status}: ${await asked.text()}`);
  const token = linkIn(await lastMailTo(user.email, /Reset your/), "/reset-password?token=").searchParams.get("token")!;
  return { ...user, token };
}

export type ResetRace = {
  /** the reset's status (200 when it went through) */
  reset: number;
  /** what the old password got: an API token's status, or whether next-auth set a session cookie */
  attempt: number | "signed in" | "refused";
  /** what the old password got still reads GET /api/v1/me after the reset answered */
  survived: boolean;
};

/**
 * Issue 39, Medium 4: a password reset is confirmed, and `delayMs` later the old password is used
 * to create an API token (`token`, HTTP Basic) or to sign in (`session`, next-auth's credentials
 * callback). Whatever the order, nothing the old password got may outlive the reset.
 */
export async function raceResetAgainst(base: string, kind: "token" | "session", delayMs: number): Promise<ResetRace> {
  const { email, password, token } = await accountWithResetLink(base);
  let reset: Promise<Response> | undefined;
  const confirm = async () => {
    reset = request(base, "/api/v1/password-reset/confirm", { json: { token, password: NEW_PASSWORD } });
    await sleep(delayMs);
  };
  if (kind === "token") {
    await confirm();
    const created = await request(base, "/api/v1/tokens", { json: { name: "race" }, headers: basic(email, password) });
    const body = await created.json();
    const status = (await reset!).status;
    if (created.status !== 201) return { reset: status, attempt: created.status, survived: false };
    const me = await request(base, "/api/v1/me", { headers: { authorization: `Bearer ${body.token}` } });
    await me.arrayBuffer();
    return { reset: status, attempt: 201, survived: me.status === 200 };
  }
  const session = await signInWithCookies(base, email, password, confirm);
  const status = (await reset!).status;
  if (!session.signedIn) return { reset: status, attempt: "refused", survived: false };
  const me = await fetch(`${base}/api/v1/me`, { headers: { cookie: session.cookie() } });
  await me.arrayBuffer();
  return { reset: status, attempt: "signed in", survived: me.status === 200 };
}

export type DisqualifyRace = { disqualify: number; accept: number; lost: boolean };

/**
 * Issue 39, Low: an organizer disqualifies a team `delayMs` after one of its members sent the
 * acceptance of its merge into another team. Lost: the disqualification answered 200, yet the
 * member's team (after the merge, the team it merged into) is not disqualified.
 */
export async function raceDisqualifyAgainstMerge(base: string, slug: string, organizer: { authorization: string }, delayMs: number): Promise<DisqualifyRace> {
  const [asker, asked] = await Promise.all([newCompetitor(base, slug), newCompetitor(base, slug)]);
  const merge = await asker.call(`/api/v1/competitions/${slug}/teams/merge`, { json: { inviteCode: asked.team.inviteCode } });
  const accept = request(base, `/api/v1/competitions/${slug}/teams/merge-requests/${merge.id}/accept`, { method: "POST", headers: asked.auth });
  await sleep(delayMs);
  const disqualify = await request(base, `/api/v1/competitions/${slug}/teams/${asked.team.id}/disqualify`, { json: { reason: "two accounts, one person" }, headers: organizer });
  await disqualify.arrayBuffer();
  const accepted = await accept;
  await accepted.arrayBuffer();
  const team = await asked.call(`/api/v1/competitions/${slug}/team`);
  return { disqualify: disqualify.status, accept: accepted.status, lost: disqualify.status === 200 && team.disqualified === null };
}

/**
 * Issue 39, Low: how long POST /api/v1/password-reset takes for `count` addresses that have accounts
 * and `count` that have none, asked in alternation (which kind goes first alternates too) with
 * `pauseMs` between requests, so that work one leaves behind does not land on the next.
 */
export async function resetTimings(base: string, count: number, pauseMs = 400): Promise<{ existing: number[]; unknown: number[] }> {
  const accounts = [];
  for (let i = 0; i < count; i++) accounts.push(await newApiUser(base, "timed"));
  const time = async (email: string) => {
    const start = performance.now();
    const answer = await request(base, "/api/v1/password-reset", { json: { email } });
    await answer.arrayBuffer();
    const ms = performance.now() - start;
    if (answer.status !== 202) throw new Error(`POST /api/v1/password-reset → ${answer.status}`);
    await sleep(pauseMs);
    return ms;
  };
  const existing: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < count; i++) {
    const stranger = `nobody-${i}-${Date.now().toString(36)}@example.com`;
    if (i % 2) {
      unknown.push(await time(stranger));
      existing.push(await time(accounts[i].email));
    } else {
      existing.push(await time(accounts[i].email));
      unknown.push(await time(stranger));
    }
  }
  return { existing, unknown };
}

/**
 * The Mann–Whitney U test of two samples (normal approximation, which is close from 8 values a
 * side): U counts the pairs in which `a`'s value is the larger (ties count one half), z is U
 * standardised, and p the two-sided probability of a |z| at least this large when both samples
 * come from one distribution.
 */
export function mannWhitney(a: number[], b: number[]): { u: number; z: number; p: number } {
  let u = 0;
  for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  const z = (u - mean) / sd;
  return { u, z, p: erfc(Math.abs(z) / Math.SQRT2) };
}

/** The complementary error function (Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7), for x ≥ 0. */
function erfc(x: number): number {
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return poly * Math.exp(-x * x);
}
