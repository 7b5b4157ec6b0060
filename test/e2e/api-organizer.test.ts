import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newApiUser, postCsv, publishedCompetition, putCsv, runCalibrateCli } from "./helpers";

const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
const slug = () => `api-${randomBytes(5).toString("hex")}`;

describe("an organizer through the REST API only", () => {
  it("creates, uploads a Markov-correlated solution, fits the chain, plans the mechanism and publishes", async () => {
    const { auth } = await newApiUser("organizer");
    const s = slug();
    const created = await api("/api/v1/competitions", {
      headers: auth,
      body: { slug: s, title: "API competition", description: "Hourly *spikes*.", metric: { name: "accuracy" }, endsAt: future, dailySubmissionLimit: 4, maxTeamSize: 3 },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ slug: s, status: "draft", metric: { name: "accuracy", direction: "higher" }, mechanism: null });
    // Until the organizer chooses, it runs the recommended settings: the plan of an empty draft asks for the solution first.

    const upload = await putCsv(`/api/v1/competitions/${s}/solution`, demoSolutionCsv(), auth);
    expect(upload.status).toBe(200);
    const counts = await upload.json();
    expect(counts.rows).toBe(2880);
    expect(counts.public + counts.holdout).toBe(2880);

    const correlation = await api(`/api/v1/competitions/${s}/correlation`, { method: "PUT", headers: auth, body: { model: { kind: "markov", fit: { alpha: 1 } } } });
    expect(correlation.status).toBe(200);
    const summary = await correlation.json();
    // The demo splits by household: one chain per holdout household (32 of 60).
    expect(summary.chain).toMatchObject({ stateNames: ["high", "low", "mid"], chains: 32, reversible: expect.any(Boolean) });
    expect(summary.n).toBe(counts.holdout);

    const mechanism = { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 };
    const planned = await api(`/api/v1/competitions/${s}/mechanism`, { method: "PUT", headers: auth, body: mechanism });
    expect(planned.status).toBe(200);
    const plan = await planned.json();
    expect(plan).toMatchObject({ sigma: 0.01, threshold: 0.04, budget: 20, guarantee: { holds: false } });

    // The same numbers from the public calibrate endpoint and from `npm run calibrate`.
    // (with the public rows, which size an honest team's gap: docs/mechanism.md §2.6)
    const spec = { n: summary.n, publicRows: counts.public, model: summary.model, mechanism: { ...mechanism, maxQueries: plan.guarantee.maxQueries } };
    const viaApi = await (await api("/api/v1/calibrate", { body: spec })).json();
    expect(viaApi).toEqual(plan);
    expect(await runCalibrateCli(spec)).toEqual(plan);

    // No formal guarantee at σ = 0.01, T = 0.04 on this holdout: publishing asks for it to be acknowledged, in words.
    const checklist = await (await api(`/api/v1/competitions/${s}/publish`, { headers: auth })).json();
    expect(checklist).toMatchObject({ ready: true, acknowledgments: [{ code: "no_guarantee", message: expect.stringContaining("No formal guarantee") }] });
    const refused = await api(`/api/v1/competitions/${s}/publish`, { method: "POST", headers: auth });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({ code: "acknowledgment_required", details: ["no_guarantee"] });
    const published = await api(`/api/v1/competitions/${s}/publish`, { headers: auth, body: { acknowledge: ["no_guarantee"] } });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ status: "published", mechanism: { sigma: 0.01, threshold: 0.04, budget: 20 } });
    expect((await putCsv(`/api/v1/competitions/${s}/solution`, demoSolutionCsv(), auth)).status).toBe(409);

    const details = await (await api(`/api/v1/competitions/${s}`)).json();
    expect(details.status).toBe("published");
    // The commitment is two hashes (docs/mechanism.md §2.10); nothing else names the secret or a label.
    const { commitment, ...rest } = details;
    expect(commitment).toEqual({ solution: expect.stringMatching(/^[0-9a-f]{64}$/), secret: expect.stringMatching(/^[0-9a-f]{64}$/), publishedAt: expect.any(String) });
    expect(JSON.stringify(rest)).not.toMatch(/secret|spike,|holdout,/);
  });

  it("names a bad field of a publication, an announcement and a webhook with 422 before anything is done", async () => {
    // Each body is parsed by its endpoint's schema before the service runs (docs/api.md), so these are the API's answers, not a service's.
    const { auth } = await newApiUser("organizer");
    const s = slug();
    const draft = await api("/api/v1/competitions", { headers: auth, body: { slug: s, title: "Draft", metric: { name: "accuracy" }, endsAt: future } });
    expect(draft.status).toBe(201);
    const unknown = await api(`/api/v1/competitions/${s}/publish`, { headers: auth, body: { acknowledge: ["anything"] } });
    expect([unknown.status, (await unknown.json()).error]).toEqual([
      422,
      {
        code: "unprocessable_entity",
        message: 'acknowledge.0: expected one of "no_guarantee", "model_ignores_groups" or "model_ignores_states", got "anything"',
        details: [{ path: "acknowledge.0", message: 'expected one of "no_guarantee", "model_ignores_groups" or "model_ignores_states", got "anything"' }],
      },
    ]);
    expect((await (await api(`/api/v1/competitions/${s}`, { headers: auth })).json()).status).toBe("draft");

    const { slug: live, organizer } = await publishedCompetition();
    const empty = await api(`/api/v1/competitions/${live}/announcements`, { headers: organizer, body: { title: "Hello", body: "   " } });
    expect([empty.status, (await empty.json()).error]).toEqual([
      422,
      { code: "unprocessable_entity", message: "body: write the announcement", details: [{ path: "body", message: "write the announcement" }] },
    ]);
    expect((await (await api(`/api/v1/competitions/${live}/announcements`)).json()).announcements).toEqual([]);
    const ftp = await api(`/api/v1/competitions/${live}/webhooks`, { headers: organizer, body: { url: "ftp://example.org/x" } });
    expect([ftp.status, (await ftp.json()).error]).toEqual([
      422,
      { code: "unprocessable_entity", message: "url: use an http or https address", details: [{ path: "url", message: "use an http or https address" }] },
    ]);
    expect((await (await api(`/api/v1/competitions/${live}/webhooks`, { headers: organizer })).json()).webhooks).toEqual([]);
  });

  it("rejects a bad solution with the lines named and nothing stored", async () => {
    const { auth } = await newApiUser("organizer");
    const s = slug();
    await api("/api/v1/competitions", { headers: auth, body: { slug: s, title: "Bad files", metric: { name: "brier" }, endsAt: future } });
    const response = await putCsv(`/api/v1/competitions/${s}/solution`, "id,label,split\na,1,public\na,2,holdout\n", auth);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.details).toEqual([{ line: 3, message: 'duplicate id "a" (first on line 2)' }]);
    const mechanism = await api(`/api/v1/competitions/${s}/mechanism`, { method: "PUT", headers: auth, body: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
    expect(mechanism.status).toBe(409);
  });

  it("answers POST /api/v1/calibrate for both maps, naming bad fields", async () => {
    const forward = await (await api("/api/v1/calibrate", { body: { n: 1000, model: { kind: "groups", maxGroupSize: 4 }, epsDp: 0.1 } })).json();
    expect(forward).toEqual({ epsBdp: expect.closeTo(0.4, 12), byMethod: { groups: expect.closeTo(0.4, 12) }, exhaustive: true });
    const bad = await api("/api/v1/calibrate", { body: { n: -3, model: { kind: "markov", transition: [[1]] }, epsBdp: 1 } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.message).toContain("n:");
  });
});

describe("the organizer's console and disqualification", () => {
  it("lists every submission with raw scores (JSON and CSV) to organizers; a disqualified team leaves the boards, cannot submit, keeps its spent budget, and can be reinstated", async () => {
    const { slug, organizer } = await publishedCompetition();
    const cheat = await newApiUser("cheat");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: cheat.auth, body: { name: "Cheaters", acceptRules: true } });
    const honest = await newApiUser("honest");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: honest.auth, body: { name: "Honest Ones", acceptRules: true } });
    for (const [who, seed] of [
      [cheat, "c1"],
      [honest, "h1"],
    ] as const) {
      const form = new FormData();
      form.set("file", new Blob([demoPredictionsCsv({ skill: 0.7, seed })], { type: "text/csv" }), `${seed}.csv`);
      form.set("description", `run ${seed}`);
      expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: who.auth, body: form })).status).toBe(201);
    }
    const all = await (await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: organizer })).json();
    expect(all.submissions).toHaveLength(2);
    expect(all.submissions[0]).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      team: "Honest Ones",
      teamId: expect.any(String),
      user: "honest",
      kind: expect.stringMatching(/public|holdout/),
      answer: expect.any(Number),
      publicScore: expect.any(Number),
      holdoutScore: expect.any(Number),
      description: "run h1",
      filename: "h1.csv",
      flags: [],
    });
    const csv = await (await api(`/api/v1/competitions/${slug}/submissions/all?format=csv`, { headers: organizer })).text();
    expect(csv.split("\r\n")[0]).toBe("id,created_at,team,user,kind,answer,public_score,holdout_score,description,filename,flags");
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect((await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: cheat.auth })).status).toBe(403);

    const teamId = all.submissions.find((s: { team: string }) => s.team === "Cheaters").teamId;
    const budgetBefore = (await (await api(`/api/v1/competitions/${slug}/team`, { headers: cheat.auth })).json()).budget;
    expect((await api(`/api/v1/competitions/${slug}/teams/${teamId}/disqualify`, { headers: organizer, body: { reason: "x" } })).status).toBe(422);
    const dq = await (await api(`/api/v1/competitions/${slug}/teams/${teamId}/disqualify`, { headers: organizer, body: { reason: "one person, two accounts" } })).json();
    expect(dq).toMatchObject({ name: "Cheaters", disqualified: { reason: "one person, two accounts" } });
    const board = await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json();
    expect(board.entries.map((e: { team: string }) => e.team)).toEqual(["Honest Ones"]);
    const refused = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "c2" }), cheat.auth);
    expect([refused.status, (await refused.json()).error.message]).toEqual([403, "your team was disqualified by the organizers: one person, two accounts"]);
    expect((await (await api(`/api/v1/competitions/${slug}/team`, { headers: cheat.auth })).json()).budget).toEqual(budgetBefore);
    expect((await (await api(`/api/v1/competitions/${slug}/teams/${teamId}`)).json()).team.disqualified).toMatchObject({ reason: "one person, two accounts" });
    const flagged = await (await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: organizer })).json();
    expect(flagged.submissions.find((s: { team: string }) => s.team === "Cheaters").flags).toEqual(["team disqualified"]);

    await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer });
    expect((await (await api(`/api/v1/competitions/${slug}/final`)).json()).entries.map((e: { rank: number; team: string }) => [e.rank, e.team])).toEqual([[1, "Honest Ones"]]);
    expect((await api(`/api/v1/competitions/${slug}/teams/${teamId}/disqualify`, { method: "DELETE", headers: organizer })).status).toBe(200);
    expect((await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json()).entries).toHaveLength(2);
  });
});

describe("running a live competition through the REST API", () => {
  it("edits after publishing with a preview and a change log, bans a user, tests in the sandbox, shows a baseline, and answers late submissions exactly", async () => {
    const { slug, organizer } = await publishedCompetition({ daily: 3 });
    const player = await newApiUser("late-player");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name: "Stragglers", acceptRules: true } });
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "s1" }), player.auth)).status).toBe(201);

    const details = await (await api(`/api/v1/competitions/${slug}`)).json();
    const endsAt = new Date(Date.parse(details.endsAt) + 2 * 86_400_000).toISOString();
    const preview = await (await api(`/api/v1/competitions/${slug}?preview=true`, { method: "PATCH", headers: organizer, body: { endsAt } })).json();
    expect(preview.changes).toEqual([
      { field: "endsAt", before: details.endsAt, after: endsAt },
      { field: "maxQueries", before: details.mechanism.maxQueries, after: details.mechanism.maxQueries + 6 },
    ]);
    expect(preview.plan).toMatchObject({ replanned: false, before: { sigma: 0.01, budget: 5 }, after: { sigma: 0.01, budget: 5, maxQueries: details.mechanism.maxQueries + 6 } });
    const locked = await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: organizer, body: { maxTeamSize: 2 } });
    expect([locked.status, (await locked.json()).error.message]).toEqual([
      409,
      "maxTeamSize cannot change once the competition is published (title, description, rules, endsAt, dailySubmissionLimit, access, lateSubmissions can)",
    ]);
    expect((await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: player.auth, body: { title: "Mine now" } })).status).toBe(403);
    const saved = await (await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: organizer, body: { endsAt, lateSubmissions: true } })).json();
    expect([saved.endsAt, saved.lateSubmissions, saved.mechanism.maxQueries]).toEqual([endsAt, true, details.mechanism.maxQueries + 6]);
    const { changes } = await (await api(`/api/v1/competitions/${slug}/changes`, { headers: organizer })).json();
    expect(changes).toEqual([
      { at: expect.any(String), by: expect.any(String), changes: [...preview.changes.slice(0, 1), { field: "lateSubmissions", before: false, after: true }, preview.changes[1]] },
    ]);
    expect((await api(`/api/v1/competitions/${slug}/changes`, { headers: player.auth })).status).toBe(403);

    // A ban: the reason reaches the banned user, nothing is spent; lifted, they submit again.
    expect((await api(`/api/v1/competitions/${slug}/bans`, { headers: organizer, body: { email: player.email, reason: "scraping the holdout" } })).status).toBe(201);
    const banned = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "s2" }), player.auth);
    expect([banned.status, (await banned.json()).error.message]).toEqual([403, "the organizers banned you from this competition: scraping the holdout"]);
    const { bans } = await (await api(`/api/v1/competitions/${slug}/bans`, { headers: organizer })).json();
    expect(bans).toEqual([{ userId: expect.any(String), name: "late-player", email: player.email, reason: "scraping the holdout", createdAt: expect.any(String) }]);
    expect((await api(`/api/v1/competitions/${slug}/bans/${bans[0].userId}`, { method: "DELETE", headers: organizer })).status).toBe(200);

    // The sandbox: exact scores for organizers, refused to competitors, nothing on the boards.
    const test = await (
      await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions?sandbox=true&filename=base.csv`, {
        method: "POST",
        headers: { ...organizer, "content-type": "text/csv" },
        body: demoPredictionsCsv({ skill: 0.6, seed: "base" }),
      })
    ).json();
    expect(test).toMatchObject({ filename: "base.csv", publicScore: expect.any(Number), holdoutScore: expect.any(Number), baseline: null });
    expect(
      (
        await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions?sandbox=true`, {
          method: "POST",
          headers: { ...player.auth, "content-type": "text/csv" },
          body: "id,prediction\n",
        })
      ).status,
    ).toBe(403);
    const shown = await (
      await api(`/api/v1/competitions/${slug}/sandbox/${test.id}/baseline`, { method: "PUT", headers: organizer, body: { name: "Logistic regression" } })
    ).json();
    const board = await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json();
    // A baseline shows its public score: the exact public score of the sandbox test, nothing about the holdout.
    expect(board.baselines).toEqual([
      { name: "Logistic regression", score: test.publicScore, kind: "public", bound: null, uncertainty: expect.any(Number), decimals: board.displayPrecision },
    ]);
    expect(shown.baseline.score).toBe(test.publicScore);
    expect(board.entries.map((e: { team: string }) => e.team)).toEqual(["Stragglers"]);
    expect(JSON.stringify(board)).not.toContain(String(test.holdoutScore));

    // After the close: late submissions, exact, on the late board; the final standings stay.
    await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer });
    const final = await (await api(`/api/v1/competitions/${slug}/final`)).json();
    const late = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.95, seed: "s3" }), player.auth);
    expect(late.status).toBe(201);
    const answer = await late.json();
    expect(answer).toMatchObject({ answer: { kind: "late", score: expect.any(Number) }, budget: { initial: 5 } });
    const all = await (await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: organizer })).json();
    expect(all.submissions[0]).toMatchObject({ id: answer.id, kind: "late", answer: answer.answer.score, holdoutScore: answer.answer.score });
    expect((await (await api(`/api/v1/competitions/${slug}/leaderboard/late`)).json()).entries).toEqual([
      { rank: 1, team: "Stragglers", teamId: expect.any(String), score: answer.answer.score, submissions: 1, lastSubmissionAt: answer.createdAt },
    ]);
    expect(await (await api(`/api/v1/competitions/${slug}/final`)).json()).toEqual(final);
    const file = await api(`/api/v1/competitions/${slug}/submissions/${answer.id}/file`, { headers: player.auth });
    expect(await file.text()).toBe(demoPredictionsCsv({ skill: 0.95, seed: "s3" }));
  });
});
