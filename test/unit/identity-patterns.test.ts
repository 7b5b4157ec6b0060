import { describe, expect, it } from "vitest";
import { handleBase, patternGroups, sharedAddresses, type TracedAccount, type TracedIdentity } from "@/lib/identity-patterns";

const identity = (provider: string, subject: string, username: string | null, email: string | null = null, emailVerified = true): TracedIdentity => ({
  provider,
  subject,
  username,
  email,
  emailVerified,
});
const account = (id: string, team: string, email: string, identities: TracedIdentity[] = []): TracedAccount => ({ id, name: `Name ${id}`, team, email, identities });

describe("a handle's base", () => {
  it("drops case, the domain, a plus-tag and trailing digits, dots, hyphens and underscores", () => {
    expect(["ann", "Ann1", "ann2", "ann.", "ann.3", "ann_04", "ann-5", "ann+kaggle@x.org", "ANN7+b@y.org", "ann..12"].map(handleBase)).toEqual(Array(10).fill("ann"));
    expect(handleBase("ann.lee2@lab.example")).toBe("ann.lee");
    expect(handleBase("2ann")).toBe("2ann"); // leading digits stay
  });

  it("is null under three characters: al1 and al2 say nothing", () => {
    expect([handleBase("al1"), handleBase("a.1"), handleBase("12345"), handleBase("+tag@x.org")]).toEqual([null, null, null, null]);
  });
});

describe("accounts whose handles follow one pattern", () => {
  const accounts = [
    account("1", "Alpha", "ann@uni.example", [identity("github", "101", "annlee")]),
    account("2", "Bravo", "ann1@mail.example", [identity("github", "102", "annlee2")]),
    account("3", "Charlie", "ann.2+x@mail.example", [identity("lab", "ann.lee@lab.example", null, "ann.lee@lab.example")]),
    account("4", "Alpha", "ann3@mail.example"), // Alpha's second member: in the group, the group spans other teams
    account("5", "Delta", "bob@mail.example", [identity("github", "105", "annlee7")]),
    account("6", "Echo", "carol@mail.example", [identity("lab", "carol1@lab.example", null, "carol1@lab.example")]),
    account("7", "Echo", "carol2@mail.example"), // one team only: no signal
    account("8", "Fox", "al1@mail.example"),
    account("9", "Golf", "al2@mail.example"), // too short a base
  ];

  it("groups by provider and base, across teams only, with each account's handle", () => {
    expect(patternGroups(accounts)).toEqual([
      {
        provider: "email",
        base: "ann",
        accounts: [
          { name: "Name 3", team: "Charlie", handle: "ann.2+x@mail.example" },
          { name: "Name 2", team: "Bravo", handle: "ann1@mail.example" },
          { name: "Name 4", team: "Alpha", handle: "ann3@mail.example" },
          { name: "Name 1", team: "Alpha", handle: "ann@uni.example" },
        ],
      },
      {
        provider: "github",
        base: "annlee",
        accounts: [
          { name: "Name 1", team: "Alpha", handle: "annlee" },
          { name: "Name 2", team: "Bravo", handle: "annlee2" },
          { name: "Name 5", team: "Delta", handle: "annlee7" },
        ],
      },
    ]);
  });

  it("never mixes providers: the same base at two providers is two groups or none", () => {
    const split = [account("1", "A", "x1@m.example", [identity("github", "1", "zed1")]), account("2", "B", "y1@m.example", [identity("google", "2", null, "zed2@g.example")])];
    expect(patternGroups(split)).toEqual([]);
  });

  it("counts an account once per group however many of its handles match", () => {
    const twice = [account("1", "A", "kim1@m.example", [identity("lab", "kim2@lab.example", null, "kim2@lab.example")]), account("2", "B", "kim3@m.example")];
    expect(patternGroups(twice)).toEqual([
      {
        provider: "email",
        base: "kim",
        accounts: [
          { name: "Name 1", team: "A", handle: "kim1@m.example" },
          { name: "Name 2", team: "B", handle: "kim3@m.example" },
        ],
      },
    ]);
  });
});

describe("one verified address behind accounts of several teams", () => {
  it("finds a provider-verified address that is another team's account address, or two accounts' identities' address, and ignores unverified ones", () => {
    const accounts = [
      account("1", "Alpha", "dee@uni.example"),
      account("2", "Bravo", "dee.other@mail.example", [identity("google", "g-2", null, "DEE@uni.example")]),
      account("3", "Charlie", "eve@mail.example", [identity("github", "30", "eve", "shared@box.example")]),
      account("4", "Delta", "eve2@mail.example", [identity("lab", "shared@box.example", null, "shared@box.example")]),
      account("5", "Echo", "fay@mail.example", [identity("github", "50", "fay", "dee@uni.example", false)]), // not verified: no signal
      account("6", "Alpha", "gus@mail.example", [identity("google", "g-6", null, "dee@uni.example")]), // Alpha again: in the group
    ];
    expect(sharedAddresses(accounts)).toEqual([
      {
        address: "dee@uni.example",
        accounts: [
          { name: "Name 1", team: "Alpha", provider: "email" },
          { name: "Name 6", team: "Alpha", provider: "google" },
          { name: "Name 2", team: "Bravo", provider: "google" },
        ],
      },
      {
        address: "shared@box.example",
        accounts: [
          { name: "Name 3", team: "Charlie", provider: "github" },
          { name: "Name 4", team: "Delta", provider: "lab" },
        ],
      },
    ]);
  });
});
