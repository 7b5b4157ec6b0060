import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { STANDALONE, startApp } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { api, APP_URL, dropFreshDatabases, freshDatabase, parseAnswer, postCsv, publishedCompetition, newCompetitor } from "./helpers";
import { basic } from "@/scripts/support/rest-client";

const metrics = async (auth?: string) => fetch(`${APP_URL}/api/metrics`, { headers: auth ? { authorization: auth } : {} });

/** The value of one sample line (`name{labels} value`) in Prometheus text, 0 when absent. */
function sample(text: string, line: string): number {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

describe("metrics and logs", () => {
  it("serves Prometheus metrics to METRICS_TOKEN only: submissions by kind, scoring and request durations, the database pool", async () => {
    expect((await metrics()).status).toBe(401);
    expect((await metrics("Bearer not-the-token")).status).toBe(401);
    const token = `Bearer ${process.env.METRICS_TOKEN}`;
    const before = await (await metrics(token)).text();
    const { slug } = await publishedCompetition();
    const player = await newCompetitor(slug);
    const answer = await (await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "metrics" }), player.auth)).json();
    const response = await metrics(token);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = await response.text();
    const kind = `quiltboard_submissions_total{kind="${answer.answer.kind}"}`;
    // Other test files use this instance meanwhile: at least this one submission was counted.
    expect(sample(after, kind) - sample(before, kind)).toBeGreaterThanOrEqual(1);
    expect(sample(after, "quiltboard_scoring_duration_seconds_count") - sample(before, "quiltboard_scoring_duration_seconds_count")).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(
      /^quiltboard_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/v1\/competitions\/\{slug\}\/submissions",status="201"\} \d+$/m,
    );
    expect(after).toMatch(/^quiltboard_db_pool_connections\{state="total"\} [1-9]\d*$/m);
    expect(after).toMatch(/^quiltboard_solution_cache_bytes [1-9]\d*$/m); // the competition's solution, decoded to score the submission
    expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it("labels requests by route pattern: made-up paths add no series (2,000 of them once added 28,000)", async () => {
    const token = `Bearer ${process.env.METRICS_TOKEN}`;
    const made: string[] = [];
    const unique = () => {
      const part = randomBytes(6).toString("hex");
      made.push(part);
      return part;
    };
    const { slug } = await publishedCompetition();
    for (let i = 0; i < 100; i++) {
      const paths = [`/api/v1/${unique()}`, `/${unique()}`, `/competitions/${slug}/${unique()}`, `/api/v1/competitions/${slug}/submissions/${unique()}/file`];
      await Promise.all(paths.map((path) => fetch(`${APP_URL}${path}`).then((r) => r.arrayBuffer())));
    }
    const series = (await (await metrics(token)).text()).split("\n").filter((l) => l.startsWith("quiltboard_http_request_duration_seconds_count"));
    expect(series.filter((l) => made.some((part) => l.includes(part)))).toEqual([]);
    const routes = new Set(series.map((l) => /route="([^"]*)"/.exec(l)![1]));
    expect(routes).toContain("other");
    expect(routes).toContain("/api/v1/{...path}");
    expect(routes).toContain("/api/v1/competitions/{slug}/submissions/{id}/file");
    // At most one label per route of the app, plus "other" and "/_next/*": never one per path asked for.
    const manifest = JSON.parse(readFileSync(".next/routes-manifest.json", "utf8"));
    expect(routes.size).toBeLessThanOrEqual(manifest.staticRoutes.length + manifest.dynamicRoutes.length + 2);
  });

  it("writes one JSON line per request with its request id, without the query string", async () => {
    const id = `trace-${Math.random().toString(36).slice(2, 12)}`;
    const response = await fetch(`${APP_URL}/reset-password?token=very-secret-reset-token`, { headers: { "x-request-id": id } });
    expect(response.headers.get("x-request-id")).toBe(id);
    expect((await fetch(`${APP_URL}/api/v1/competitions`, { headers: { "x-request-id": "bad id with spaces" } })).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const lines = () =>
      readFileSync(process.env.APP_LOG!, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("{"));
    await expect.poll(() => lines().some((l) => l.includes(id))).toBe(true);
    const line = JSON.parse(lines().find((l) => l.includes(id))!);
    expect(line).toMatchObject({ level: 30, service: "quiltboard", reqId: id, method: "GET", path: "/reset-password", route: "/reset-password", status: 200, msg: "request" });
    expect(typeof line.ms).toBe("number");
    expect(readFileSync(process.env.APP_LOG!, "utf8")).not.toContain("very-secret-reset-token");
    for (const l of lines()) expect(() => JSON.parse(l)).not.toThrow();
  });
});

describe("graceful shutdown", () => {
  it("finishes a submission in flight after SIGTERM, then exits, taking no new connections meanwhile", async () => {
    const { slug } = await publishedCompetition();
    const player = await newCompetitor(slug);
    const port = await freePort();
    const app = await startApp({ port, quiet: true, env: { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET! } });
    const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
    try {
      const csv = Buffer.from(demoPredictionsCsv({ skill: 0.7, seed: "in-flight" }));
      const socket = net.connect(port, "127.0.0.1");
      let received = Buffer.alloc(0);
      socket.on("data", (d: Buffer) => (received = Buffer.concat([received, d])));
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      const head = [
        `POST /api/v1/competitions/${slug}/submissions HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Content-Type: text/csv",
        `Content-Length: ${csv.length}`,
        `Authorization: ${player.auth.authorization}`,
        "Connection: close",
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      socket.write(csv.subarray(0, csv.length >> 1));
      await new Promise((r) => setTimeout(r, 300));
      app.child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 300));
      const refused = await fetch(`http://127.0.0.1:${port}/api/v1/competitions`).then(
        () => false,
        () => true,
      );
      expect(refused).toBe(true);
      socket.write(csv.subarray(csv.length >> 1));
      await closed;
      const answer = parseAnswer(received)!;
      expect(answer.status).toBe(201);
      const body = answer.body as { id: string };
      expect(await exited).toBe(143); // Next.js exits with 128 + SIGTERM once the answer is out
      const mine = await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: player.auth })).json();
      expect(mine.submissions.map((s: { id: string }) => s.id)).toEqual([body.id]);
    } finally {
      await app.stop();
    }
  });
});

describe("the standalone entry, as the image runs it (node entry.mjs)", () => {
  const entry = (args: string[], env: Record<string, string>, stdin = "") => {
    const result = spawnSync(process.execPath, ["entry.mjs", ...args], { cwd: STANDALONE, env: { ...process.env, DATABASE_URL: "", ...env }, input: stdin, encoding: "utf8" });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  afterAll(dropFreshDatabases);

  it("migrates an empty database and serves it; creates an administrator; refuses the demo and a missing DATABASE_URL", async () => {
    const database = await freshDatabase("entry", false);
    const email = `root-${Math.random().toString(36).slice(2, 8)}@example.org`;
    const created = entry(["admin", "create", email, "--name", "Root"], { DATABASE_URL: database }, "a long enough password\n");
    expect([created.code, created.stdout]).toEqual([0, `created administrator ${email}; sign in at /signin\n`]);
    const app = await startApp({ port: await freePort(), quiet: true, env: { DATABASE_URL: database, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET! } });
    try {
      const token = await (
        await fetch(`${app.url}/api/v1/tokens`, {
          method: "POST",
          headers: { "content-type": "application/json", ...basic(email, "a long enough password") },
          body: JSON.stringify({ name: "ops" }),
        })
      ).json();
      const me = await (await fetch(`${app.url}/api/v1/me`, { headers: { authorization: `Bearer ${token.token}` } })).json();
      expect(me).toMatchObject({ email, role: "admin" });
      expect((await (await fetch(`${app.url}/api/v1/competitions`)).json()).competitions).toEqual([]);
      expect(await (await fetch(`${app.url}/api/health`)).json()).toEqual({ status: "ok" });
    } finally {
      await app.stop();
    }
    expect(entry([], { DATABASE_URL: database, QUILTBOARD_DEMO: "1" })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^QUILTBOARD_DEMO=1: the standalone server carries no demo data/),
    });
    expect(entry([], {})).toMatchObject({ code: 2, stderr: expect.stringMatching(/^DATABASE_URL is not set/) });
    expect(entry([], { DATABASE_URL: database, NEXTAUTH_SECRET: "" })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^NEXTAUTH_SECRET is not set/) });
  });
});
