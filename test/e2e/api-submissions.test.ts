import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { api, APP_URL, APP_URL_2, newApiUser, postCsv, publishedCompetition, send, newCompetitor } from "./helpers";

/** node:http's answer as a Response (the 413 arrives while the body is still being sent). */
const sendAsResponse = async (answer: ReturnType<typeof send>) => {
  const a = await answer;
  return new Response(JSON.stringify(a.body), { status: a.status });
};

const good = (seed: string, skill = 0.7) => demoPredictionsCsv({ skill, seed });

async function state(slug: string, auth: Record<string, string>) {
  const [team, subs] = await Promise.all([api(`/api/v1/competitions/${slug}/team`, { headers: auth }), api(`/api/v1/competitions/${slug}/submissions`, { headers: auth })]);
  return { team: await team.json(), submissions: (await subs.json()).submissions };
}

describe("submissions over HTTP (docs/api.md)", () => {
  it("scores a CSV body and a multipart upload, and lists answers without raw scores", async () => {
    const { slug } = await publishedCompetition();
    const { auth, team } = await newCompetitor(slug, "Http Heroes");
    expect(team).toEqual({ id: expect.any(String), name: "Http Heroes", inviteCode: expect.any(String) });

    const first = await postCsv(APP_URL, slug, good("a"), auth);
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      answer: {
        kind: expect.stringMatching(/^(public|holdout)$/),
        score: expect.any(Number),
        publicScore: expect.any(Number),
        bound: expect.any(Number),
        decimals: expect.any(Number),
      },
      budget: { remaining: expect.any(Number), initial: 5 },
    });
    // The bound the mechanism proves for the score, a half-width in [0, 1] (docs/mechanism.md §2.8): it and the score stay inside [0, 1].
    expect(body.answer.bound).toBeGreaterThan(0);
    expect(body.answer.bound).toBeLessThanOrEqual(1);

    const form = new FormData();
    form.append("file", new Blob([good("b")], { type: "text/csv" }), "predictions.csv");
    const second = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: auth, body: form });
    expect(second.status).toBe(201);

    const listed = await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: auth })).json();
    expect(listed.submissions).toHaveLength(2);
    const text = JSON.stringify(listed);
    // The team's own public scores, never holdout values, thresholds or the mechanism's bookkeeping.
    expect(text).not.toMatch(/holdoutScore|holdoutValue|privateScore|noisyThreshold|secret|queryIndex/);
    expect(listed.submissions.map((x: { answer: { publicScore: number } }) => typeof x.answer.publicScore)).toEqual(["number", "number"]);
    expect(listed.final).toHaveLength(1);

    const selected = await api(`/api/v1/competitions/${slug}/submissions/${body.id}/final`, { method: "PUT", headers: auth, body: { selected: true } });
    expect(await selected.json()).toEqual({ id: body.id, selected: true });
    expect((await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: auth })).json()).final).toEqual([body.id]);
  });

  it("answers a retried Idempotency-Key with the first result", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug, "Retriers");
    const headers = { ...auth, "idempotency-key": "upload-1" };
    const first = await postCsv(APP_URL, slug, good("c"), headers);
    const again = await postCsv(APP_URL_2, slug, good("c"), headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect((await state(slug, auth)).submissions).toHaveLength(1);
  });

  it("gives every rejection its status and message, and changes nothing", async () => {
    const { slug, organizer } = await publishedCompetition({ daily: 1 });
    const { auth } = await newCompetitor(slug, "Rejected");
    const outsider = await newApiUser("outsider");
    const before = await state(slug, auth);
    // One after the other: an account may have two uploads read at once (a third is a 429).
    const cases: [string, () => Promise<Response>, number, RegExp][] = [
      ["unknown id", () => postCsv(APP_URL, slug, "id,prediction\nghost,spike\n", auth), 422, /line 2: id "ghost" is not in the test set/],
      ["bad header", () => postCsv(APP_URL, slug, "ident,pred\n", auth), 422, /missing columns id, prediction/],
      ["missing ids", () => postCsv(APP_URL, slug, "id,prediction\nhh000-t00,spike\n", auth), 422, /2879 test ids have no prediction/],
      ["no team", () => postCsv(APP_URL, slug, good("d"), outsider.auth), 403, /join or create a team/],
      ["anonymous", () => postCsv(APP_URL, slug, good("d"), {}), 401, /sign in or send Authorization/],
      [
        "too large",
        () =>
          sendAsResponse(
            send(`/api/v1/competitions/${slug}/submissions`, { ...auth, "content-type": "text/csv", "content-length": String(129 * 1024 * 1024) }, [
              Buffer.alloc(129 * 1024 * 1024, "x"),
            ]),
          ),
        413,
        /larger than 128 MiB/,
      ],
    ];
    for (const [name, request, status, message] of cases) {
      const response = await request();
      const error = (await response.json()).error;
      expect(response.status, name).toBe(status);
      expect(error.message, name).toMatch(message);
    }
    expect(await state(slug, auth)).toEqual(before);
    const midnight = new Date(new Date().setUTCHours(24, 0, 0, 0));
    expect(before.team.limits).toEqual({ dailyLimit: 1, usedToday: 0, remainingToday: 1, resetsAt: midnight.toISOString() });

    expect((await postCsv(APP_URL, slug, good("e"), auth)).status).toBe(201);
    const afterOne = await state(slug, auth);
    expect(afterOne.team.limits).toEqual({ dailyLimit: 1, usedToday: 1, remainingToday: 0, resetsAt: midnight.toISOString() });
    const capped = await postCsv(APP_URL, slug, good("f"), auth);
    expect(capped.status).toBe(429);
    const wait = Number(capped.headers.get("retry-after"));
    expect(Math.abs(wait - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(60); // seconds to midnight UTC
    expect((await capped.json()).error.message).toMatch(/used its 1 submissions for today \(UTC\)/);
    expect(await state(slug, auth)).toEqual(afterOne);

    await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer });
    const closedState = await state(slug, auth);
    const closed = await postCsv(APP_URL, slug, good("g"), auth);
    expect(closed.status).toBe(409);
    expect(await state(slug, auth)).toEqual(closedState);
    // What the close added, and nothing else: each submission's private score (docs/api.md).
    for (const submission of closedState.submissions) expect(submission.privateScore).toEqual(expect.any(Number));
    const withoutPrivate = (submission: Record<string, unknown>) => Object.fromEntries(Object.entries(submission).filter(([key]) => key !== "privateScore"));
    expect({ ...closedState, submissions: closedState.submissions.map(withoutPrivate) }).toEqual(afterOne);
  });

  it("refuses submissions before the start with 409", async () => {
    const { slug } = await publishedCompetition({ startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    const player = await newApiUser("early");
    const team = await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name: "Early birds", acceptRules: true } });
    expect(team.status).toBe(409);
    expect((await team.json()).error.message).toMatch(/^this competition opens on /);
    expect((await postCsv(APP_URL, slug, good("h"), player.auth)).status).toBe(409);
  });

  it("serialises one team's concurrent submissions sent to two app instances at once", async () => {
    const { slug, organizer } = await publishedCompetition({ budget: 8, sigma: 0.001, threshold: 0.001 });
    const { auth, team } = await newCompetitor(slug, "Two Doors");
    const mate = await newApiUser("mate");
    await api(`/api/v1/competitions/${slug}/teams/join`, { headers: mate.auth, body: { inviteCode: team.inviteCode } });
    // A polite client: an account may have two uploads read at once per instance (a 429 with Retry-After beyond).
    const politely = async (url: string, csv: string, who: Record<string, string>): Promise<Response> => {
      const response = await postCsv(url, slug, csv, who);
      if (response.status !== 429) return response;
      await new Promise((r) => setTimeout(r, Number(response.headers.get("retry-after")) * 1000));
      return politely(url, csv, who);
    };
    const requests = Array.from({ length: 20 }, (_, i) =>
      politely(i % 2 ? APP_URL_2 : APP_URL, demoPredictionsCsv({ skill: 0.3 + (i % 4) * 0.1, seed: `race-${i}` }), i % 3 ? auth : mate.auth),
    );
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const results = await Promise.all(responses.map((r) => r.json()));
    const holdout = results.filter((r) => r.answer.kind === "holdout").length;
    expect(holdout).toBeLessThanOrEqual(8);
    const final = await state(slug, auth);
    expect(final.submissions).toHaveLength(20);
    expect(final.team.budget).toEqual({ remaining: 8 - holdout, initial: 8 });
    expect(new Set(results.map((r) => r.id)).size).toBe(20);

    const audit = await (await api(`/api/v1/competitions/${slug}/audit`, { headers: organizer })).json();
    expect(audit).toEqual({ queries: 20, mismatches: 0, examples: [] });
    const health = await (await api(`/api/v1/competitions/${slug}/health`, { headers: organizer })).json();
    expect(health.teams).toEqual([expect.objectContaining({ name: "Two Doors", holdoutAnswers: holdout })]);
    expect((await api(`/api/v1/competitions/${slug}/audit`, { headers: auth })).status).toBe(403);
  });
});

describe("submission files and notes", () => {
  it("keeps the note, the file name and the file, which the team and the organizers download byte for byte", async () => {
    const { slug, organizer } = await publishedCompetition();
    const { auth } = await newCompetitor(slug, "Archivists");
    const stranger = await newCompetitor(slug, "Strangers");
    const csv = good("archive").replace(/\n/g, "\r\n"); // CRLF endings must come back as they were
    const form = new FormData();
    form.set("file", new Blob([csv], { type: "text/csv" }), "gbm-300-trees.csv");
    form.set("description", "gradient boosting, 300 trees ✓");
    const posted = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: auth, body: form });
    expect(posted.status).toBe(201);
    const { id } = await posted.json();
    const viaQuery = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions?description=${encodeURIComponent("plain body")}&filename=raw.csv`, {
      method: "POST",
      headers: { ...auth, "content-type": "text/csv" },
      body: good("raw"),
    });
    expect(viaQuery.status).toBe(201);
    const listed = (await state(slug, auth)).submissions.map((s: { description: string; filename: string }) => [s.description, s.filename]);
    expect(listed).toEqual([
      ["plain body", "raw.csv"],
      ["gradient boosting, 300 trees ✓", "gbm-300-trees.csv"],
    ]);
    for (const who of [auth, organizer]) {
      const file = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions/${id}/file`, { headers: who });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toContain('filename="gbm-300-trees.csv"');
      expect(file.headers.get("content-length")).toBe(String(Buffer.byteLength(csv))); // the original size, though the file streams unpacked
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(csv))).toBe(true);
    }
    expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions/${id}/file`, { headers: stranger.auth })).status).toBe(404);

    const before = await state(slug, auth);
    const tooLong = new FormData();
    tooLong.set("file", new Blob([good("long")], { type: "text/csv" }), "x.csv");
    tooLong.set("description", "x".repeat(501));
    const refused = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: auth, body: tooLong });
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.message).toBe("description: the description is limited to 500 characters");
    expect(await state(slug, auth)).toEqual(before);
  });

  it("tells a UTF-16 file, another separator, a pandas index and a file of many bad rows what they are, and spends nothing", async () => {
    const { slug, organizer } = await publishedCompetition({ daily: 1 });
    const { auth } = await newCompetitor(slug);
    const before = await state(slug, auth);
    const good = demoPredictionsCsv({ skill: 0.7, seed: "hints" });
    const post = async (body: Buffer<ArrayBuffer> | string) => {
      const answer = await fetch(`${APP_URL}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: { ...auth, "content-type": "text/csv" }, body });
      expect(answer.status).toBe(422);
      return (await answer.json()).error as { message: string; details: { line: number; message: string }[] };
    };
    const UTF16 = 'this file is UTF-16; save it as UTF-8 (Excel: Save As "CSV UTF-8 (Comma delimited)"; pandas writes UTF-8 unless given another encoding)';
    expect(await post(Buffer.from(`\uFEFF${good}`, "utf16le"))).toEqual({
      code: "unprocessable_entity",
      message: `the submission was rejected: ${UTF16}`,
      details: [{ line: 0, message: UTF16 }],
    });
    expect((await post(Buffer.from(good, "utf16le").swap16())).details).toEqual([{ line: 0, message: UTF16 }]);
    expect((await post(good.replace(/,/g, ";"))).details).toEqual([
      {
        line: 1,
        message:
          'the header "id;prediction" is separated by semicolons, not commas: save the file with commas between the columns (pandas: to_csv without sep=; Excel: "CSV UTF-8 (Comma delimited)")',
      },
    ]);
    const indexed = good
      .trim()
      .split("\n")
      .map((line, i) => `${i === 0 ? "" : i - 1},${line}`)
      .join("\n");
    expect((await post(indexed)).details).toEqual([
      { line: 1, message: 'the first column has no name (""): it looks like a pandas index; write the file with to_csv(path, index=False)' },
    ]);
    const rows = good.trim().split("\n");
    const unknown = [rows[0], ...rows.slice(1).map((line, i) => `nobody-${i},${line.split(",")[1]}`)].join("\n");
    const many = await post(unknown);
    const total = rows.length - 1;
    expect(many.details).toHaveLength(21);
    expect(many.details[0]).toEqual({ line: 2, message: 'id "nobody-0" is not in the test set' });
    expect(many.details[20]).toEqual({ line: 0, message: `and ${(total - 20).toLocaleString("en")} more problems (${total.toLocaleString("en")} in all)` });
    // The solution upload says the same of its own file (a draft's).
    const draft = `${slug}-draft`;
    await api("/api/v1/competitions", {
      headers: organizer,
      body: { slug: draft, title: "Draft with a UTF-16 solution", metric: { name: "accuracy" }, endsAt: "2031-01-01T00:00:00Z" },
    });
    const put = (body: Buffer<ArrayBuffer> | string) =>
      fetch(`${APP_URL}/api/v1/competitions/${draft}/solution`, { method: "PUT", headers: { ...organizer, "content-type": "text/csv" }, body });
    const solution = await put(Buffer.from("\uFEFFid,label,split\na,1,public\nb,0,holdout\n", "utf16le"));
    expect([solution.status, (await solution.json()).error.details]).toEqual([422, [{ line: 0, message: UTF16 }]]);
    const indexedSolution = await put("Unnamed: 0,id,label,split\n0,a,1,public\n1,b,0,holdout\n");
    expect((await indexedSolution.json()).error.details).toEqual([
      { line: 1, message: 'the first column has no name ("Unnamed: 0"): it looks like a pandas index; write the file with to_csv(path, index=False)' },
    ]);
    // Nothing was spent: today's one submission and the budget are still there.
    expect(await state(slug, auth)).toEqual(before);
  });
});

describe("the automatic close (two app instances, each looking every 2 s)", () => {
  it("closes a competition at its end exactly once, shows the final standings and tells each member once by mail", async () => {
    const { slug } = await publishedCompetition({ endsAt: new Date(Date.now() + 12_000).toISOString() }); // time to join and submit first
    const { auth, email } = await newCompetitor(slug, "Last Minute");
    expect((await postCsv(APP_URL, slug, good("last"), auth)).status).toBe(201);
    let status = "published";
    for (let i = 0; i < 80 && status !== "closed"; i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await (await api(`/api/v1/competitions/${slug}`)).json()).status;
    }
    expect(status).toBe("closed");
    const final = await (await api(`/api/v1/competitions/${slug}/final`)).json();
    expect(final.entries.map((e: { rank: number; team: string }) => [e.rank, e.team])).toEqual([[1, "Last Minute"]]);
    expect((await lastMailTo(email, /Final standings/)).text).toContain("Your team Last Minute finished 1st.");
    await new Promise((r) => setTimeout(r, 4_000)); // both instances have looked again meanwhile
    // One close mail, however many instances looked. Besides it, the sign-up's verification mail and, when a
    // scheduler's tick (every 2 s here) fell between the join and the close, the day-ahead reminder: the
    // competition ends within the day, so the first tick reminds whoever is in a team then (seen in a full run).
    expect(await mailCount(email, 1, /Final standings/)).toBe(1);
    expect(await mailCount(email, 1, /Verify your email/)).toBe(1);
    expect(await mailCount(email, 0, /^(?!.*(Final standings|Verify your email|: Closing in \d+ hours?$))/)).toBe(0);
  });
});
