import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN } from "@/scripts/cli-package";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newCompetitor, postCsv, publishedCompetition, PYTHON } from "./helpers";

// A close that anyone can verify (docs/mechanism.md §2.10), from outside: the commitment published
// with the competition, the reveal after the close, and two verifiers of their own — `quiltboard
// verify` and the Python client's verify() — that find 0 differences on a true board, and report a
// tampered stored answer and a changed label.

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const cli = (slug: string) => run(process.execPath, [CLI_BIN, "verify", slug], { QUILTBOARD_URL: APP_URL });
const python = (slug: string) =>
  run(PYTHON!, ["-c", "import sys, quiltboard; v = quiltboard.Client(sys.argv[1]).verify(); print(v); sys.exit(0 if v.verified else 1)", `${APP_URL}/competitions/${slug}`], {
    PYTHONPATH: "clients/python",
  });

describe("verifying a revealed competition", () => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  let slug = "";
  let organizer: Record<string, string> = {};
  beforeAll(async () => {
    await db.connect();
    ({ slug, organizer } = await publishedCompetition({ budget: 3, threshold: 0.02, sigma: 0.005 }));
    for (const name of ["Verity", "Falsity"]) {
      const { auth } = await newCompetitor(slug, name);
      for (let k = 0; k < 3; k++) {
        // Falsity overfits the public rows: charged, a noisy holdout answer each time.
        const csv = demoPredictionsCsv({ skill: name === "Verity" ? 0.7 : 0, seed: `${name}-${k}`, overfit: name === "Falsity" });
        expect((await postCsv(APP_URL, slug, csv, auth)).status).toBe(201);
      }
    }
  });
  afterAll(() => db.end());

  it("publishes a commitment, reveals after the close, and both verifiers find 0 differences", async () => {
    const details = await (await api(`/api/v1/competitions/${slug}`)).json();
    // the solution's bytes as the organizer uploaded them (scripts/support/rest-client.ts: demoSolutionCsv())
    expect(details.commitment).toEqual({
      solution: createHash("sha256").update(demoSolutionCsv()).digest("hex"),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      publishedAt: expect.any(String),
    });
    expect((await api(`/api/v1/competitions/${slug}/reveal`)).status).toBe(404);
    expect((await api(`/api/v1/competitions/${slug}/reveal`, { method: "POST", headers: organizer })).status).toBe(409); // not closed yet
    expect((await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer })).status).toBe(200);
    const revealed = await api(`/api/v1/competitions/${slug}/reveal`, { method: "POST", headers: organizer });
    expect(revealed.status).toBe(200);
    expect((await revealed.json()).revealedAt).toEqual(expect.any(String));

    const reveal = await (await api(`/api/v1/competitions/${slug}/reveal`)).json();
    expect(reveal.commitment).toEqual(details.commitment);
    expect(reveal.transcript.queries).toBe(6);
    const solution = await (await api(reveal.solution.url)).text();
    expect(solution).toBe(demoSolutionCsv());

    const byCli = await cli(slug);
    expect(byCli.code, byCli.stderr).toBe(0);
    expect(byCli.stdout).toContain("answers: 6 replayed, 0 differ");
    expect(byCli.stdout.trim().split("\n").at(-1)).toBe("verified: every answer follows the published mechanism");
    if (PYTHON) {
      const byPython = await python(slug);
      expect(byPython.code, byPython.stderr).toBe(0);
      expect(byPython.stdout).toContain("answers: 6 replayed, 0 differ");
    }
  });

  it("reports a tampered stored answer, naming the submission", async () => {
    const [victim] = (
      await db.query<{ id: string; answer: number }>(
        `SELECT s.id, s.answer FROM submissions s JOIN competitions c ON c.id = s.competition_id WHERE c.slug = $1 AND s.kind = 'public' LIMIT 1`,
        [slug],
      )
    ).rows;
    await db.query(`UPDATE submissions SET answer = answer + 0.001 WHERE id = $1`, [victim.id]);
    try {
      const byCli = await cli(slug);
      expect(byCli.code).toBe(1);
      expect(byCli.stdout).toContain("answers: 6 replayed, 1 differs");
      expect(byCli.stdout).toContain(`  ${victim.id}: stored public`);
      expect(byCli.stderr).toBe("quiltboard: the competition does not verify\n");
      if (PYTHON) {
        const byPython = await python(slug);
        expect(byPython.code).toBe(1);
        expect(byPython.stdout).toContain(`${victim.id}: stored public`);
      }
    } finally {
      await db.query(`UPDATE submissions SET answer = $2 WHERE id = $1`, [victim.id, victim.answer]);
    }
  });

  it("reports a label changed after publishing: the solution no longer hashes to the commitment", async () => {
    const changed = demoSolutionCsv().replace(/,none,holdout,/, ",spike,holdout,");
    // The kept file in the local file store (the e2e apps' QUILTBOARD_FILES_DIR), replaced in place.
    const [{ key }] = (await db.query<{ key: string }>(`SELECT file_key AS key FROM solutions s JOIN competitions c ON c.id = s.competition_id WHERE c.slug = $1`, [slug])).rows;
    const kept = path.join(process.env.QUILTBOARD_FILES_DIR!, key);
    const file = readFileSync(kept);
    writeFileSync(kept, gzipSync(changed));
    try {
      const byCli = await cli(slug);
      expect(byCli.code).toBe(1);
      expect(byCli.stdout).toContain("solution: DIFFERS from the commitment");
      if (PYTHON) expect((await python(slug)).stdout).toContain("solution: DIFFERS from the commitment");
    } finally {
      writeFileSync(kept, file);
    }
  });
});
