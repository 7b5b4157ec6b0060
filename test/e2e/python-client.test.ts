import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newCompetitor, publishedCompetition, PYTHON } from "./helpers";

/** Runs the Python client's tests (clients/python/tests) with the machine's python3 against the app under test. */
function pythonTests(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON!, ["-m", "unittest", "discover", "-v", "-s", "clients/python/tests"], { env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

describe.skipIf(!PYTHON)("the Python client (clients/python) against the real server", () => {
  it("submits a file or a DataFrame with its SHA-256 as Idempotency-Key, sends it again after a short Retry-After, reads the board, the team's submissions and limits, finds competitions, downloads the data (resuming one cut off, deleting a corrupted part), and raises the server's message with the line", async () => {
    const { slug, organizer } = await publishedCompetition({ daily: 20 });
    const text = "hourly readings of 60 households\n";
    const form = new FormData();
    form.set("file", new Blob([text], { type: "text/plain" }), "readme.txt");
    expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: organizer, body: form })).status).toBe(201);
    // A title no other competition has, for competitions(search=…).
    const title = `Pythonsearch${Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join("")}`;
    expect((await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: organizer, body: { title } })).status).toBe(200);
    const competitor = await newCompetitor(slug, "Pythonistas");
    const predictions = path.join(mkdtempSync(path.join(tmpdir(), "quiltboard-python-")), "gbm.csv");
    writeFileSync(predictions, demoPredictionsCsv({ skill: 0.7, seed: "python" }));

    const run = await pythonTests({
      QUILTBOARD_TEST_URL: `${APP_URL}/competitions/${slug}`,
      QUILTBOARD_TOKEN: competitor.auth.authorization.replace("Bearer ", ""),
      QUILTBOARD_TEST_TEAM: "Pythonistas",
      QUILTBOARD_TEST_PREDICTIONS: predictions,
      QUILTBOARD_TEST_ATTACHMENT: "readme.txt",
      QUILTBOARD_TEST_ATTACHMENT_TEXT: text,
      QUILTBOARD_TEST_DAILY: "20",
      QUILTBOARD_TEST_TITLE: title,
    });
    expect(run.output).toMatch(/Ran 18 tests/);
    expect([run.code, run.output]).toEqual([0, expect.stringMatching(/\nOK( \(skipped=1\))?\n$/)]);
    // The file went in once (its second submission was answered from the first), the DataFrame once,
    // and the file sent again after a 429 once (with the two uploads that held the slots).
    const mine = await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: competitor.auth })).json();
    expect(mine.submissions.map((s: { filename: string }) => s.filename).sort()).toEqual(["dataframe.csv", "gbm.csv", "retry.csv"]);
  });

  it("installs with pip from the app's own package into a fresh virtual environment, with nothing from PyPI, and works from there", { timeout: 180_000 }, async () => {
    const { slug } = await publishedCompetition();
    // The command as the Data tab gives it.
    const page = await (await fetch(`${APP_URL}/competitions/${slug}/data`)).text();
    const [, documented] = /pip install (\S+\/quiltboard-python\.tar\.gz)/.exec(page) ?? [];
    expect(documented).toBe(`${APP_URL}/quiltboard-python.tar.gz`);
    const venv = path.join(mkdtempSync(path.join(tmpdir(), "quiltboard-venv-")), "env");
    const created = spawnSync(PYTHON!, ["-m", "venv", venv], { encoding: "utf8" });
    expect(created.status, created.stderr).toBe(0);
    // --no-index: nothing may come from PyPI (the build backend is the standard library's).
    const pip = spawnSync(path.join(venv, "bin", "pip"), ["install", "--no-index", "--disable-pip-version-check", documented], {
      encoding: "utf8",
      cwd: tmpdir(),
    });
    expect(pip.status, pip.stderr + pip.stdout).toBe(0);
    const script = [
      "import json, quiltboard",
      `c = quiltboard.Client(${JSON.stringify(APP_URL)})`,
      "print(json.dumps([quiltboard.__version__, quiltboard.__file__, [x['slug'] for x in c.competitions()]]))",
    ];
    const used = spawnSync(path.join(venv, "bin", "python"), ["-c", script.join("\n")], { encoding: "utf8", cwd: tmpdir() });
    expect(used.stderr).toBe("");
    const [version, file, slugs] = JSON.parse(used.stdout);
    expect(version).toBe(JSON.parse(readFileSync("package.json", "utf8")).version);
    expect(file.startsWith(venv)).toBe(true);
    expect(slugs).toContain(slug);
  });
});
