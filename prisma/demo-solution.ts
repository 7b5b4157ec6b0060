// The demo competition's solution: hourly readings of 60 households whose consumption state
// (low, mid, high) follows a Markov chain; a spike is likelier in a high state. Each household lies
// wholly in the public or the holdout split, so public scores reveal nothing of a holdout household
// (docs/mechanism.md §2.6). Deterministic.
import seedrandom from "seedrandom";

export const HOUSEHOLDS = 60;
export const HOURS = 48;
const STATES = ["low", "mid", "high"];
const P = [
  [0.8, 0.15, 0.05],
  [0.2, 0.6, 0.2],
  [0.1, 0.3, 0.6],
];

/** The demo solution: id,label,split,order,group,state, deterministic. */
export function demoSolutionCsv(): string {
  const rng = seedrandom("quiltboard-demo");
  const lines = ["id,label,split,order,group,state"];
  for (let h = 0; h < HOUSEHOLDS; h++) {
    const split = rng() < 0.5 ? "public" : "holdout";
    let state = Math.floor(rng() * 3);
    for (let t = 0; t < HOURS; t++) {
      if (t > 0) {
        const u = rng();
        state = u < P[state][0] ? 0 : u < P[state][0] + P[state][1] ? 1 : 2;
      }
      const spike = rng() < (state === 2 ? 0.7 : state === 1 ? 0.2 : 0.05);
      lines.push(`hh${String(h).padStart(3, "0")}-t${String(t).padStart(2, "0")},${spike ? "spike" : "none"},${split},${t},hh${h},${STATES[state]}`);
    }
  }
  return lines.join("\n") + "\n";
}

/**
 * A demo predictions file: each row right with probability `skill`; an `overfit` file is right on
 * every public row (as if tuned to the leaderboard) and a coin flip on the holdout.
 */
export function demoPredictionsCsv(options: { skill: number; seed: string; overfit?: boolean }): string {
  const rng = seedrandom(options.seed);
  const rows = demoSolutionCsv().trim().split("\n").slice(1);
  const lines = ["id,prediction"];
  for (const row of rows) {
    const [id, label, split] = row.split(",");
    const right = options.overfit ? (split === "public" ? true : rng() < 0.5) : rng() < options.skill;
    lines.push(`${id},${right ? label : label === "spike" ? "none" : "spike"}`);
  }
  return lines.join("\n") + "\n";
}
