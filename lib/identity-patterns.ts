/**
 * Signs that one person holds several accounts, read from what the accounts' addresses and sign-in
 * identities are called (the manage page's multiple-account signals, lib/server/console/sybil.ts):
 * handles of one provider that follow one pattern — name, name1, name2, name.2, name+kaggle — and
 * one verified address behind several accounts. Pure: the accounts come in, the groups go out,
 * each group spanning at least two teams (accounts of one team are one team's business).
 */

/** An identity linked to an account: its provider's id, its subject there, and what it said of the person. */
export type TracedIdentity = { provider: string; subject: string; username: string | null; email: string | null; emailVerified: boolean };

/** An account taking part: its name, its team, its own address and its identities. */
export type TracedAccount = { id: string; name: string; team: string; email: string; identities: TracedIdentity[] };

/** Accounts in different teams whose handles at one provider (`email`: the accounts' own addresses) share a base. */
export type PatternGroup = { provider: string; base: string; accounts: { name: string; team: string; handle: string }[] };

/** Accounts in different teams behind which one verified address stands (their own, or one a provider verified). */
export type SharedAddressGroup = { address: string; accounts: { name: string; team: string; provider: string }[] };

/** The provider key of the accounts' own addresses in a PatternGroup. */
export const OWN_ADDRESS = "email";

/** Bases shorter than this ("al" of al1, al2) are too common to say anything. */
const MIN_BASE = 3;

/**
 * A handle's base: lower case, an address's local part, without a plus-tag and without trailing
 * digits, dots, hyphens and underscores ("Ann.Lee2+kaggle@x.org" → "ann.lee"); null when under 3 characters.
 */
export function handleBase(handle: string): string | null {
  const local = handle.trim().toLowerCase().split("@")[0];
  const base = local.split("+")[0].replace(/[\d._-]+$/, "");
  return base.length >= MIN_BASE ? base : null;
}

const teamsOf = (accounts: { team: string }[]) => new Set(accounts.map((a) => a.team)).size;

/** Sorts by the given keys (each a string, compared by code point: the same order on every machine), first key first. */
const byKeys =
  <T>(...keys: ((x: T) => string)[]) =>
  (a: T, b: T) => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };

/**
 * Accounts whose handles at one provider share a base, in at least two teams: for each account its
 * own address (provider `email`) and each identity's username (else its address, else its subject).
 * Each account counts once per group; groups are ordered by provider and base, accounts by handle.
 */
export function patternGroups(accounts: TracedAccount[]): PatternGroup[] {
  const groups = new Map<string, PatternGroup & { ids: Set<string> }>();
  const add = (account: TracedAccount, provider: string, handle: string) => {
    const base = handleBase(handle);
    if (!base) return;
    const key = `${provider}\u0000${base}`;
    const group = groups.get(key) ?? { provider, base, accounts: [], ids: new Set<string>() };
    groups.set(key, group);
    if (group.ids.has(account.id)) return;
    group.ids.add(account.id);
    group.accounts.push({ name: account.name, team: account.team, handle });
  };
  for (const account of accounts) {
    add(account, OWN_ADDRESS, account.email);
    for (const i of account.identities) add(account, i.provider, i.username ?? i.email ?? i.subject);
  }
  return [...groups.values()]
    .filter((g) => teamsOf(g.accounts) > 1)
    .map(({ provider, base, accounts: members }) => ({
      provider,
      base,
      accounts: members.sort(
        byKeys(
          (a) => a.handle,
          (a) => a.name,
        ),
      ),
    }))
    .sort(
      byKeys(
        (g) => g.provider,
        (g) => g.base,
      ),
    );
}

/**
 * One verified address behind accounts of at least two teams: an account's own address, or an
 * address a provider verified for one of its identities (lower case, compared whole). A provider's
 * subject belongs to one account only (the identities' unique key), so the address is what two
 * accounts can share. Each account once per address, with the first provider it came through.
 */
export function sharedAddresses(accounts: TracedAccount[]): SharedAddressGroup[] {
  const groups = new Map<string, { accounts: SharedAddressGroup["accounts"]; ids: Set<string> }>();
  const add = (account: TracedAccount, provider: string, address: string) => {
    const key = address.trim().toLowerCase();
    const group = groups.get(key) ?? { accounts: [], ids: new Set<string>() };
    groups.set(key, group);
    if (group.ids.has(account.id)) return;
    group.ids.add(account.id);
    group.accounts.push({ name: account.name, team: account.team, provider });
  };
  for (const account of accounts) {
    add(account, OWN_ADDRESS, account.email);
    for (const i of account.identities) if (i.email && i.emailVerified) add(account, i.provider, i.email);
  }
  return [...groups.entries()]
    .filter(([, g]) => teamsOf(g.accounts) > 1)
    .map(([address, g]) => ({
      address,
      accounts: g.accounts.sort(
        byKeys(
          (a) => a.team,
          (a) => a.name,
        ),
      ),
    }))
    .sort(byKeys((g) => g.address));
}
