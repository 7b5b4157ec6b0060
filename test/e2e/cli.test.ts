import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, cpSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { freePort } from "@/scripts/db/admin";
import { CLI_BIN } from "@/scripts/cli-package";
import { api, APP_URL, newApiUser, newCompetitor, publishedCompetition, type Run, runProgram } from "./helpers";

/**
 * Runs the `quiltboard` command as a user would: the bundled file (package.json "bin", built with the
 * app by scripts/app.ts ensureBuilt), with its own credentials directory (QUILTBOARD_CONFIG_DIR).
 */
function quiltboard(args: string[], env: Record<string, string> = {}, stdin = "", cwd?: string): Promise<Run> {
  return runProgram(process.execPath, [CLI_BIN, ...args], { cwd, env: { QUILTBOARD_URL: APP_URL, ...env }, stdin });
}

const token = (auth: Record<string, string>) => auth.authorization.replace("Bearer ", "");

describe("the quiltboard command", () => {
  it("refuses a bundle file that links outside the bundle, uploading nothing of it", async () => {
    const organizer = await newApiUser("cli-links");
    const slug = `cli-${randomBytes(4).toString("hex")}`;
    const bundle = mkdtempSync(path.join(tmpdir(), "quiltboard-bundle-"));
    cpSync("docs/bundle-example", bundle, { recursive: true });
    const manifest = path.join(bundle, "competition.yaml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace("slug: household-power-spikes-2027", `slug: ${slug}`).replace("  - sample_submission.csv", "  - sample_submission.csv\n  - notes.csv"),
    );
    const secret = path.join(mkdtempSync(path.join(tmpdir(), "quiltboard-secret-")), "id_rsa");
    writeFileSync(secret, "a private key");
    symlinkSync(secret, path.join(bundle, "notes.csv"));
    const pushed = await quiltboard(["push", bundle], { QUILTBOARD_TOKEN: token(organizer.auth), QUILTBOARD_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "quiltboard-config-")) });
    expect([pushed.code, pushed.stderr]).toEqual([1, `quiltboard: notes.csv: a link to a file outside ${bundle}; bundle files must be inside it\n`]);
    const attachments = await api(`/api/v1/competitions/${slug}/attachments`, { headers: organizer.auth });
    const listed = attachments.status === 200 ? (await attachments.json()).attachments : [];
    expect(listed.map((a: { filename: string }) => a.filename)).not.toContain("notes.csv");
  });

  it("pushes a competition bundle, then a competitor logs in, submits with a note and reads everything back", { timeout: 120_000 }, async () => {
    const organizer = await newApiUser("cli-organizer");
    const slug = `cli-${randomBytes(4).toString("hex")}`;
    const bundle = mkdtempSync(path.join(tmpdir(), "quiltboard-bundle-"));
    cpSync("docs/bundle-example", bundle, { recursive: true });
    const manifest = path.join(bundle, "competition.yaml");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("slug: household-power-spikes-2027", `slug: ${slug}`));
    const asOrganizer = { QUILTBOARD_TOKEN: token(organizer.auth), QUILTBOARD_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "quiltboard-config-")) };

    const pushed = await quiltboard(["push", bundle], asOrganizer);
    expect(pushed.stderr).toBe("");
    expect(pushed.code).toBe(0);
    const lines = pushed.stdout.trim().split("\n");
    expect(lines[0]).toBe(`created ${slug} (a draft)`);
    expect(lines[1]).toBe("solution: 2,880 rows (1,344 public, 1,536 holdout)");
    expect(lines[2]).toBe("correlation: markov");
    // the recommended σ and T for this holdout (docs/bundle-example: mode recommended), no formal guarantee, acknowledged by the bundle
    expect(lines[3]).toMatch(/^mechanism: σ = 0\.\d+, T = 0\.\d+, budget 20\. No formal guarantee/);
    expect(lines.slice(4)).toEqual(["data file: sample_submission.csv", `published ${slug}; its commitment is in commitment.json`]);
    // The bundle keeps the commitment publishing fixed (docs/mechanism.md §2.10).
    const record = JSON.parse(readFileSync(path.join(bundle, "commitment.json"), "utf8"));
    const details = await (await api(`/api/v1/competitions/${slug}`)).json();
    expect(record).toEqual({ slug, ...details.commitment });
    expect(details).toMatchObject({ title: "Household Power Spikes 2027", status: "published", lateSubmissions: true, mechanism: { budget: 20 } });
    expect(details.rules).toBe(readFileSync("docs/bundle-example/rules.md", "utf8"));

    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("title: Household Power Spikes 2027", "title: Household Power Spikes, second edition"));
    expect((await quiltboard(["push", bundle], asOrganizer)).stdout.split("\n")[0]).toBe("updated title");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("maxTeamSize: 4", "maxTeamSize: 9"));
    const frozen = await quiltboard(["push", bundle], asOrganizer);
    expect([frozen.code, frozen.stderr]).toEqual([1, "quiltboard: maxTeamSize cannot change once the competition is published; change them back in the bundle\n"]);

    // A competitor: login stores a token readable by them only; later commands need no variables.
    const competitor = await newApiUser("cli-competitor");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: competitor.auth, body: { name: "Terminal Team", acceptRules: true } });
    const config = mkdtempSync(path.join(tmpdir(), "quiltboard-config-"));
    const asCompetitor = { QUILTBOARD_CONFIG_DIR: config };
    const login = await quiltboard(["login"], asCompetitor, `${competitor.email}\n${competitor.password}\n`);
    expect(login.stdout).toBe(`signed in to ${APP_URL} as ${competitor.email}; the token is stored in ${config}/quiltboard.json\n`);
    expect(statSync(path.join(config, "quiltboard.json")).mode & 0o777).toBe(0o600);

    const work = mkdtempSync(path.join(tmpdir(), "quiltboard-work-"));
    const predictions = path.join(work, "gbm.csv");
    writeFileSync(predictions, demoPredictionsCsv({ skill: 0.72, seed: "cli" }));
    // Kaggle's form of the command; the score and its ± to the same decimals, those the ± supports (test/e2e/score-display.test.ts).
    const submitted = await quiltboard(["competitions", "submit", slug, "-f", predictions, "-m", "gradient boosting, 200 trees"], asCompetitor);
    expect(submitted.code).toBe(0);
    const [answer, budget] = submitted.stdout.trim().split("\n");
    expect(answer).toMatch(
      /^0\.(\d+) ± 0\.\d+ {2}(public score, checked against the holdout \(nothing spent\)|checked on the holdout: one unit spent \(a noisy holdout score\); public score 0\.\d+)$/,
    );
    expect(budget).toMatch(/^budget (19|20) of 20 left; 4 of 5 submissions left today \(resets \d{4}-\d\d-\d\d 00:00 UTC\)$/);

    // The same file again (a command run twice): its SHA-256 is the Idempotency-Key, so the first answer comes back and nothing is spent.
    const again = await quiltboard(["submit", slug, "-f", predictions], asCompetitor);
    const againLines = again.stdout.trim().split("\n");
    expect(againLines[0]).toBe(answer);
    expect(againLines[1]).toMatch(/^the same file as submission [0-9a-f]{8} \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\): its answer again, nothing spent$/);
    expect(againLines[2]).toBe(budget);
    expect((await (await api(`/api/v1/competitions/${slug}/team`, { headers: competitor.auth })).json()).limits).toMatchObject({ usedToday: 1, remainingToday: 4 });

    const other = path.join(work, "other.csv");
    writeFileSync(other, demoPredictionsCsv({ skill: 0.7, seed: "cli-other" }));
    const json = JSON.parse((await quiltboard(["submit", slug, other, "--json"], asCompetitor)).stdout);
    expect(json).toMatchObject({
      answer: { kind: expect.stringMatching(/^(public|holdout)$/) },
      budget: { initial: 20 },
      replayed: false,
      limits: { dailyLimit: 5, usedToday: 2, remainingToday: 3 },
    });

    const bad = path.join(work, "bad.csv");
    writeFileSync(bad, "id,prediction\nnobody,spike\n");
    const rejected = await quiltboard(["submit", slug, bad], asCompetitor);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr.trim().split("\n")).toHaveLength(1);
    expect(rejected.stderr).toMatch(/^quiltboard: .*line 2: id "nobody" is not in the test set/);

    expect((await quiltboard(["limits", slug], asCompetitor)).stdout).toMatch(/^3 of 5 submissions left today \(resets .* UTC\); budget \d+ of 20 left \(team Terminal Team\)\n$/);
    const mine = (await quiltboard(["submissions", slug], asCompetitor)).stdout;
    expect(mine).toContain("gradient boosting, 200 trees");
    expect(mine.trim().split("\n")).toHaveLength(3); // the header and two submissions
    expect((await quiltboard(["leaderboard", slug], asCompetitor)).stdout).toMatch(/^#\s+team\s+score.*\n1\s+Terminal Team\s+0\.\d+\s/);
    expect((await quiltboard(["c", "list"], asCompetitor)).stdout).toMatch(
      new RegExp(`\n${slug} +Household Power Spikes, second edition +published +accuracy +2027-03-31 23:59 +1\n`),
    );
    expect((await quiltboard(["files", slug], asCompetitor)).stdout).toMatch(/^name\s+size \(bytes\)\nsample_submission\.csv\s+\d+\n$/);

    const data = path.join(work, "data");
    expect((await quiltboard(["competitions", "download", slug, "-p", data], asCompetitor)).code).toBe(0);
    expect(readFileSync(path.join(data, "sample_submission.csv"))).toEqual(readFileSync("docs/bundle-example/sample_submission.csv"));
    // The id as `submissions` prints it (its first 8 characters) is accepted back.
    const printed = mine
      .split("\n")
      .find((line) => line.includes("other.csv"))!
      .split(/\s+/)[2];
    expect(printed).toBe((json.id as string).slice(0, 8));
    const back = path.join(work, "back");
    expect((await quiltboard(["download", slug, "--submission", printed, "-p", back], asCompetitor)).code).toBe(0);
    expect(readFileSync(path.join(back, "other.csv"), "utf8")).toBe(readFileSync(other, "utf8"));
    expect((await quiltboard(["download", slug, "--submission", "ffffffff"], asCompetitor)).stderr).toBe(
      "quiltboard: none of your team's submissions has an id starting with ffffffff\n",
    );
  });

  it(
    "speaks Kaggle's habits: -v/--csv, -q, download -w/-o skipping files already there, leaderboard --show/--download, config with a default competition",
    { timeout: 120_000 },
    async () => {
      const { slug, organizer } = await publishedCompetition({ daily: 20 });
      const form = new FormData();
      const trainText = "id,reading\n1,0.5\n";
      form.set("file", new Blob([trainText], { type: "text/csv" }), "train.csv");
      expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: organizer, body: form })).status).toBe(201);
      const competitor = await newCompetitor(slug, "Habitual Team");
      const config = mkdtempSync(path.join(tmpdir(), "quiltboard-config-"));
      const me = { QUILTBOARD_CONFIG_DIR: config };
      const work = mkdtempSync(path.join(tmpdir(), "quiltboard-work-"));
      const predictions = path.join(work, "first.csv");
      writeFileSync(predictions, demoPredictionsCsv({ skill: 0.7, seed: "habits" }));

      // config set, Kaggle's form (-n NAME -v VALUE) and the short one; the file is the user's alone.
      expect(await quiltboard(["config", "set", "-n", "token", "-v", token(competitor.auth)], me)).toEqual({
        code: 0,
        stdout: `token set in ${config}/quiltboard.json\n`,
        stderr: "",
      });
      expect((await quiltboard(["config", "set", "competition", slug], me)).code).toBe(0);
      expect(JSON.parse(readFileSync(path.join(config, "quiltboard.json"), "utf8"))).toEqual({ token: token(competitor.auth), competition: slug });
      expect(statSync(path.join(config, "quiltboard.json")).mode & 0o777).toBe(0o600);
      expect((await quiltboard(["config", "view"], me)).stdout).toBe(
        [`config file: ${config}/quiltboard.json`, `url: ${APP_URL} (from QUILTBOARD_URL)`, `token: ${token(competitor.auth).slice(0, 7)}…`, `competition: ${slug}`, ""].join("\n"),
      );

      // Without a SLUG: the default competition.
      const submitted = await quiltboard(["submit", "-f", predictions, "-m", "first"], me);
      expect([submitted.code, submitted.stderr]).toEqual([0, ""]);
      expect((await quiltboard(["limits"], me)).stdout).toMatch(/^19 of 20 submissions left today/);

      // -v/--csv: tables as CSV, full ids and times; -v alone (or --version) is the version.
      const version = `${JSON.parse(readFileSync("package.json", "utf8")).version}\n`;
      expect((await quiltboard(["-v"], me)).stdout).toBe(version);
      expect((await quiltboard(["--version"], me)).stdout).toBe(version);
      const sha = createHash("sha256").update(trainText).digest("hex");
      expect((await quiltboard(["files", "-v"], me)).stdout).toBe(`name,size,sha256\ntrain.csv,${trainText.length},${sha}\n`);
      const mine = (await quiltboard(["submissions", slug, "--csv"], me)).stdout.split("\n");
      const [id] = (await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: competitor.auth })).json()).submissions.map((s: { id: string }) => s.id);
      expect(mine[0]).toBe("id,created_at,kind,answer,bound,public_score,budget_remaining,budget_initial,final,filename,description");
      expect(mine[1]).toMatch(new RegExp(`^${id},\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,(public|holdout),0\\.\\d+,[\\d.e-]*,0\\.\\d+,\\d+,\\d+,(true|false),first\\.csv,first$`));
      expect((await quiltboard(["leaderboard", "-v"], me)).stdout).toMatch(/^rank,team,score,bound,kind,submissions,budget_remaining,budget_initial\n1,Habitual Team,0\.\d+,/);
      expect((await quiltboard(["list", "-v"], me)).stdout).toMatch(new RegExp(`\n${slug},[^\n]*,published,`));
      expect(await quiltboard(["files", "-v", "--json"], me)).toMatchObject({ code: 2, stderr: "quiltboard: --json and -v/--csv ask for two different outputs: choose one\n" });

      // download: a file already there with the listed SHA-256 is skipped, a changed one fetched again, -o fetches anyway, -w writes here, -q says nothing.
      const data = path.join(work, "data");
      expect((await quiltboard(["download", "-p", data], me)).stdout).toBe(`${data}/train.csv (${trainText.length} bytes)\n`);
      expect((await quiltboard(["download", "-p", data], me)).stdout).toBe(`${data}/train.csv: already there (the same SHA-256), skipped; -o downloads it again\n`);
      expect((await quiltboard(["download", "-p", data, "-o"], me)).stdout).toBe(`${data}/train.csv (${trainText.length} bytes)\n`);
      writeFileSync(path.join(data, "train.csv"), "edited locally\n");
      expect((await quiltboard(["download", "-p", data], me)).stdout).toBe(`${data}/train.csv (${trainText.length} bytes)\n`);
      expect(readFileSync(path.join(data, "train.csv"), "utf8")).toBe(trainText);
      expect(await quiltboard(["download", "-w", "-q"], me, "", work)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(readFileSync(path.join(work, "train.csv"), "utf8")).toBe(trainText);

      // leaderboard --download: the board's CSV as the API serves it; --show prints it as well.
      const boards = path.join(work, "boards");
      const both = await quiltboard(["leaderboard", "--download", "--show", "-p", boards], me);
      const served = await (await api(`/api/v1/competitions/${slug}/leaderboard?format=csv`)).text();
      expect(readFileSync(path.join(boards, `${slug}-leaderboard.csv`), "utf8")).toBe(served);
      expect(both.stdout).toMatch(new RegExp(`^${boards}/${slug}-leaderboard\\.csv \\(${served.length} bytes\\)\n#\\s+team`));

      // The environment overrides the file; a file others can read is named with the fix.
      expect((await quiltboard(["limits"], { ...me, QUILTBOARD_COMPETITION: "no-such-competition" })).stderr).toBe('quiltboard: no competition called "no-such-competition"\n');
      chmodSync(path.join(config, "quiltboard.json"), 0o644);
      expect((await quiltboard(["limits"], me)).stderr).toBe(
        `quiltboard: warning: others can read ${config}/quiltboard.json, which holds your token; run chmod 600 ${config}/quiltboard.json\n`,
      );
      expect(await quiltboard(["config", "unset", "-n", "competition"], me)).toMatchObject({ code: 0, stdout: `competition removed from ${config}/quiltboard.json\n` });
      expect(await quiltboard(["limits"], me)).toMatchObject({
        code: 2,
        stderr: "quiltboard: usage: quiltboard limits SLUG (or name a default: quiltboard config set -n competition -v SLUG)\n",
      });
      expect(await quiltboard(["config", "set", "-n", "password", "-v", "x"], me)).toMatchObject({
        code: 2,
        stderr: "quiltboard: usage: quiltboard config set -n NAME -v VALUE, NAME one of url, token, competition\n",
      });
    },
  );

  it("says what is wrong in one line with a non-zero exit", async () => {
    const nobody = { QUILTBOARD_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "quiltboard-config-")) };
    expect(await quiltboard(["submissions", "anything"], nobody)).toEqual({
      code: 1,
      stdout: "",
      stderr: "quiltboard: not signed in: run quiltboard login, or set QUILTBOARD_TOKEN\n",
    });
    expect(await quiltboard(["frobnicate"], nobody)).toEqual({ code: 2, stdout: "", stderr: 'quiltboard: unknown command "frobnicate"; see quiltboard --help\n' });
    expect(await quiltboard(["submit", "x"], nobody)).toEqual({ code: 2, stdout: "", stderr: "quiltboard: usage: quiltboard submit SLUG -f FILE [-m TEXT]\n" });
    expect(await quiltboard(["leaderboard", "x", "--frobnicate"], nobody)).toEqual({ code: 2, stdout: "", stderr: "quiltboard: unknown option --frobnicate\n" });
    expect((await quiltboard(["leaderboard", "no-such-competition"], nobody)).stderr).toBe('quiltboard: no competition called "no-such-competition"\n');
    const closed = await freePort(); // nothing listens there
    expect((await quiltboard(["limits", "x"], { ...nobody, QUILTBOARD_URL: `http://127.0.0.1:${closed}` })).stderr).toBe(
      `quiltboard: cannot reach http://127.0.0.1:${closed} (ECONNREFUSED); set QUILTBOARD_URL or --url\n`,
    );
    // --url=X and --url X alike (node:util parseArgs).
    for (const form of [[`--url=http://127.0.0.1:${closed}`], ["--url", `http://127.0.0.1:${closed}`]])
      expect((await quiltboard(["limits", "x", ...form], nobody)).stderr).toContain(`cannot reach http://127.0.0.1:${closed}`);
    expect((await quiltboard(["--help"], nobody)).stdout).toMatch(/^usage: quiltboard \[competitions\] <command>/);
  });

  it("installs from the app's own tarball with npm, and runs with Node alone (no tsx, no yaml, no clone)", { timeout: 120_000 }, async () => {
    const prefix = mkdtempSync(path.join(tmpdir(), "quiltboard-global-"));
    const outside = mkdtempSync(path.join(tmpdir(), "quiltboard-elsewhere-"));
    const npm = spawnSync("npm", ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", `${APP_URL}/quiltboard-cli.tgz`], { cwd: outside, encoding: "utf8" });
    expect(npm.status, npm.stderr).toBe(0);
    const installed = path.join(prefix, "bin", "quiltboard");
    // Only PATH (for `node`) and a config directory of its own: nothing of this repository.
    const env = { PATH: process.env.PATH!, QUILTBOARD_CONFIG_DIR: outside } as unknown as NodeJS.ProcessEnv;
    const version = spawnSync(installed, ["--version"], { cwd: outside, encoding: "utf8", env });
    expect(version.stdout).toBe(`${JSON.parse(readFileSync("package.json", "utf8")).version}\n`);
    const list = spawnSync(installed, ["competitions", "list", `--url=${APP_URL}`], { cwd: outside, encoding: "utf8", env });
    expect([list.status, list.stderr]).toEqual([0, ""]);
    expect(list.stdout).toMatch(/^slug\s+title\s+status\s+metric\s+deadline \(UTC\)\s+teams\n/);
  });
});
