import "server-only";
import { db } from "@/lib/server/platform/db";
import type { CompetitionRow } from "@/lib/server/competitions/competitions";
import { signInProviders } from "@/lib/server/accounts/auth";
import { agreement, bandKeys } from "@/lib/metrics/sketch";
import { OWN_ADDRESS, patternGroups, sharedAddresses } from "@/lib/identity-patterns";
import type { SybilSignals } from "@/lib/responses";

/** Accounts created from one client address within this window of each other, in different teams. */
const SIGNUP_WINDOW_MS = 24 * 3600_000;
/** Sampled holdout rows on which two teams' submissions must agree to be called near-identical. */
export const NEAR_IDENTICAL = 0.98;
/** Submissions per team compared (its latest). */
const LATEST = 3;

/**
 * Signals for organizers that one person may be behind several teams (several budgets on one
 * holdout): accounts created from one client address within a day that joined different teams,
 * accounts in different teams whose addresses or sign-in identities follow one name pattern at one
 * provider (name, name1, name2…) or share one verified address (lib/identity-patterns.ts), and
 * teams whose submissions agree on almost every sampled holdout row (found through the
 * submissions' sketches, bucketed by band so that only candidate pairs are compared). For
 * organizers only: the evidence names the accounts' handles and addresses.
 */
export async function sybilSignals(competition: Pick<CompetitionRow, "id">): Promise<SybilSignals> {
  const members = await db.teamMember.findMany({
    where: { competitionId: competition.id, team: { mergedIntoId: null } },
    select: {
      teamId: true,
      team: { select: { name: true } },
      user: {
        select: {
          id: true,
          name: true,
          email: true,
          createdAt: true,
          signupAddress: true,
          identities: { select: { provider: true, subject: true, username: true, email: true, emailVerified: true } },
        },
      },
    },
  });
  const byAddress = new Map<string, typeof members>();
  for (const m of members) if (m.user.signupAddress) byAddress.set(m.user.signupAddress, [...(byAddress.get(m.user.signupAddress) ?? []), m]);
  const sameAddress: SybilSignals["sameAddress"] = [];
  for (const group of byAddress.values()) {
    const sorted = group.sort((a, b) => a.user.createdAt.getTime() - b.user.createdAt.getTime());
    let cluster = [sorted[0]];
    const flush = () => {
      if (new Set(cluster.map((m) => m.teamId)).size > 1)
        sameAddress.push({ accounts: cluster.map((m) => ({ name: m.user.name, team: m.team.name, createdAt: m.user.createdAt.toISOString() })) });
    };
    for (const m of sorted.slice(1)) {
      if (m.user.createdAt.getTime() - cluster[cluster.length - 1].user.createdAt.getTime() <= SIGNUP_WINDOW_MS) cluster.push(m);
      else {
        flush();
        cluster = [m];
      }
    }
    flush();
  }

  // Teams by name in the evidence (as the other signals name them), providers by their configured names, null for the accounts' own addresses.
  const traced = members.map((m) => ({ id: m.user.id, name: m.user.name, team: m.team.name, email: m.user.email, identities: m.user.identities }));
  const names = new Map(signInProviders().map((p) => [p.id, p.name]));
  const named = (provider: string) => (provider === OWN_ADDRESS ? null : (names.get(provider) ?? provider));
  const samePattern = patternGroups(traced).map((g) => ({ ...g, provider: named(g.provider) }));
  const sharedAddress = sharedAddresses(traced).map((g) => ({ ...g, accounts: g.accounts.map((a) => ({ ...a, provider: named(a.provider) })) }));

  const rows = await db.$queryRaw<{ team_id: string; name: string; sketch: Uint8Array }[]>`
    SELECT s.team_id, t.name, s.sketch FROM (
      SELECT team_id, sketch, row_number() OVER (PARTITION BY team_id ORDER BY created_at DESC) AS k
      FROM submissions WHERE competition_id = ${competition.id}::uuid AND sketch IS NOT NULL
    ) s JOIN teams t ON t.id = s.team_id WHERE s.k <= ${LATEST} AND t.merged_into_id IS NULL`;
  const sketches = rows.map((r) => ({ team: r.team_id, name: r.name, values: new Int32Array(Uint8Array.from(r.sketch).buffer) }));
  const buckets = new Map<string, number[]>();
  sketches.forEach((s, i) => bandKeys(s.values).forEach((k) => buckets.set(k, [...(buckets.get(k) ?? []), i])));
  const best = new Map<string, { teams: [string, string]; agreement: number }>();
  for (const members of buckets.values()) {
    // A band shared by very many teams is a common answer (a baseline, the majority class), not a signal.
    if (members.length < 2 || new Set(members.map((i) => sketches[i].team)).size > 20) continue;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        const a = sketches[members[x]];
        const b = sketches[members[y]];
        if (a.team === b.team) continue;
        const key = [a.team, b.team].sort().join(":");
        const value = agreement(a.values, b.values);
        if (value >= NEAR_IDENTICAL && value > (best.get(key)?.agreement ?? -1)) best.set(key, { teams: [a.name, b.name].sort() as [string, string], agreement: value });
      }
    }
  }
  return { sameAddress, samePattern, sharedAddress, nearIdentical: [...best.values()].sort((p, q) => q.agreement - p.agreement) };
}
