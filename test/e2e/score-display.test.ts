import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { scoreText } from "@/lib/metrics/display";
import { CLI_BIN } from "@/scripts/cli-package";
import { api, APP_URL, newCompetitor, publishedCompetition, PYTHON } from "./helpers";

/** The `quiltboard` command's output, with a credentials directory of its own. */
function quiltboard(args: string[], token: string): string {
  const run = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, QUILTBOARD_URL: APP_URL, QUILTBOARD_TOKEN: token, QUILTBOARD_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "quiltboard-config-")) },
  });
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("one display rule (lib/metrics/display.ts)", () => {
  it("shows a score with the same digits on the web, in the CLI, in Python and in the CSV: the decimals the JSON gives with it", { timeout: 120_000 }, async () => {
    const { slug } = await publishedCompetition({ daily: 20, threshold: 0.9 }); // a wide T: the answer is the public score, whatever the noise
    const competitor = await newCompetitor(slug, "Digits");
    const token = competitor.auth.authorization.replace("Bearer ", "");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "quiltboard-digits-")), "digits.csv");
    writeFileSync(file, demoPredictionsCsv({ skill: 0.7, seed: "digits" }));
    const submitted = quiltboard(["submit", slug, "-f", file], token);

    // The JSON keeps the value and gives the decimals it is shown to: those its ± supports.
    const mine = await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: competitor.auth })).json();
    const [{ id, answer }] = mine.submissions;
    expect(answer.kind).toBe("public");
    expect(answer.bound).not.toBeNull();
    expect(answer.decimals).toBeLessThan(5); // the competition's display precision is 5: the ± supports fewer
    const shown = scoreText(answer.score, answer.bound, answer.decimals);
    const [score, bound] = shown.split(" ± ");
    expect(score).toBe(answer.score.toFixed(answer.decimals));

    const board = await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json();
    const [entry] = board.entries;
    expect([entry.team, scoreText(entry.score, entry.bound, entry.decimals)]).toEqual(["Digits", shown]);

    // The CLI: the answer, the team's submissions as CSV, the board.
    expect(submitted.split("\n")[0]).toBe(`${shown}  public score, checked against the holdout (nothing spent)`);
    const row = quiltboard(["submissions", slug, "-v"], token).split("\n")[1].split(",");
    expect([row[0], row[3], row[4], row[5]]).toEqual([id, score, bound, score]);
    expect(
      quiltboard(["leaderboard", slug], token)
        .split("\n")[1]
        .split(/\s{2,}/)
        .slice(1, 4),
    ).toEqual(["Digits", score, bound]);

    // The CSV export.
    const csv = (await (await api(`/api/v1/competitions/${slug}/leaderboard?format=csv`)).text()).split("\r\n");
    expect(csv[0]).toBe("rank,team,score,kind,bound,uncertainty,submissions,budget_remaining,budget_initial,last_submission_at");
    expect(csv[1].split(",").slice(0, 5)).toEqual(["1", "Digits", score, "public", bound]);

    // The web: the team's page and the leaderboard, as the server renders them.
    const teamPage = await (await fetch(`${APP_URL}/competitions/${slug}/teams/${entry.teamId}`)).text();
    expect(teamPage).toContain(shown);
    // (React writes an empty comment between neighbouring text nodes.)
    const boardPage = (await (await fetch(`${APP_URL}/competitions/${slug}/leaderboard`)).text()).replaceAll("<!-- -->", "");
    expect(boardPage).toContain(`>${score}<`);
    expect(boardPage).toContain(`± ${bound}`);

    // Python, from the client's own file.
    if (PYTHON) {
      const script = [
        "import sys, json",
        "sys.path.insert(0, 'clients/python')",
        "from quiltboard import Client, score_text",
        `c = Client(${JSON.stringify(`${APP_URL}/competitions/${slug}`)}, token=${JSON.stringify(token)})`,
        "[a] = c.submissions()",
        "[r] = c.leaderboard()",
        "print(json.dumps([a.text, str(a), score_text(r['score'], r['bound'], r['decimals'])]))",
      ].join("\n");
      const python = spawnSync(PYTHON, ["-c", script], { encoding: "utf8" });
      expect(python.stderr).toBe("");
      const [text, line, row] = JSON.parse(python.stdout);
      expect([text, line.startsWith(`${shown}  `), row]).toEqual([shown, true, shown]);
    }
  });
});
