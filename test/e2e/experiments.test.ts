import { describe, expect, it } from "vitest";
import { DEFAULTS, runExperiment } from "@/scripts/experiments/run";
import { APP_URL } from "./helpers";

// Small variants of issue 7's experiments, through the running app's REST API. The plain baseline
// is deterministic (seeded data, exact holdout accuracy); Thresholdout's answers carry fresh noise,
// so its bound allows T + 6 noise scales (P[|Lap(4σ)| > 6·4σ] = e^-6 per answer) plus 4 standard
// deviations of the holdout-versus-fresh sampling difference.
const small = { ...DEFAULTS, n: 1000, d: 1000, ks: [10, 50, 100, 200], submissions: 120 };
const tolerance = small.threshold + 6 * 4 * small.sigma + 4 * Math.SQRT2 * (0.5 / Math.sqrt(small.n));

function rowsOf(csv: string) {
  const [header, ...lines] = csv.trim().split("\n");
  const keys = header.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [keys[i], v === "" ? null : Number.isNaN(Number(v)) ? v : Number(v)])));
}

describe("the papers' attacks against the live mechanism", () => {
  it("no-signal data: the plain holdout overfits, Thresholdout stays near the truth", async () => {
    const [report] = await runExperiment("dwork-no-signal", APP_URL, small);
    const rows = rowsOf(report.csv);
    const plain = rows.filter((r) => r.leaderboard === "plain");
    const last = plain.at(-1)!;
    expect((last.reported as number) - (last.fresh as number)).toBeGreaterThan(0.03);
    expect(Math.abs((last.fresh as number) - 0.5)).toBeLessThan(0.05);
    for (const r of rows.filter((x) => x.leaderboard !== "plain" && x.reported !== null)) {
      expect(Math.abs((r.reported as number) - (r.fresh as number)), JSON.stringify(r)).toBeLessThan(tolerance);
    }
    expect(report.svgs[0].svg).toContain("<svg");
  }, 300_000);

  it("boosting attack: the plain holdout is fooled by a majority vote, Thresholdout is not", async () => {
    const [report] = await runExperiment("boosting-attack", APP_URL, small);
    const rows = rowsOf(report.csv);
    const plainFinal = rows.filter((r) => r.leaderboard === "plain").at(-1)!;
    expect(plainFinal.reported as number).toBeGreaterThan(0.53);
    for (const r of rows.filter((x) => x.leaderboard !== "plain" && x.reported !== null)) {
      expect(Math.abs((r.reported as number) - 0.5), JSON.stringify(r)).toBeLessThan(tolerance);
    }
  }, 300_000);

  it("a Markov-correlated holdout: the BDP calibration grants less budget than the as-if-independent one", async () => {
    const reports = await runExperiment("correlated", APP_URL, { ...small, ks: [10, 50], submissions: 60 });
    expect(reports.map((r) => r.name)).toEqual(["correlated-no-signal", "correlated-boosting"]);
    for (const report of reports) {
      expect(report.budgets.bdp!).toBeLessThan(report.budgets.independent!);
      const plainFinal = rowsOf(report.csv).filter((r) => r.leaderboard === "plain").at(-1)!;
      expect(plainFinal.reported as number).toBeGreaterThan(plainFinal.fresh as number);
    }
  }, 300_000);
});
