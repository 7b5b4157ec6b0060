// The demo competition's data: hourly smart-meter readings of households whose consumption state
// (low, mid, high) follows a Markov chain; a spike is likelier in a high state, and the reading
// (kWh) tells the state only roughly. Each test household lies wholly in the public or the holdout
// split, so public scores reveal nothing of a holdout household (docs/mechanism.md §2.6).
//
// Everything follows from one seed. `npm start` draws a random one when it first seeds the demo,
// so the hidden labels cannot be rebuilt from this file; tests use TEST_SEED.
import seedrandom from "seedrandom";

export const HOUSEHOLDS = 60;
export const TRAIN_HOUSEHOLDS = 40;
export const HOURS = 48;
/** The seed of the tests' demo solution (fixed, so their figures are exact). */
export const TEST_SEED = "quiltboard-demo";
const STATES = ["low", "mid", "high"];
// A chain that forgets its state within a few hours (λ = 0.30, n_eff ≈ 0.54 n): neighbouring hours are
// correlated, yet a holdout of a few thousand households still concentrates (docs/mechanism.md §2.5).
const P = [
  [0.5, 0.35, 0.15],
  [0.3, 0.45, 0.25],
  [0.2, 0.35, 0.45],
];
const SPIKE = [0.05, 0.2, 0.7];
/** A reading's mean and spread (kWh) in each state. */
const KWH = [
  [0.3, 0.1],
  [0.9, 0.25],
  [1.8, 0.45],
];

type Reading = { household: number; hour: number; split: "public" | "holdout"; state: number; spike: boolean; kwh: string };

/** `count` households of `HOURS` readings each: the chain and labels from `chain`, the readings from `noise`. */
function households(chain: () => number, noise: () => number, count: number): Reading[] {
  const rows: Reading[] = [];
  for (let household = 0; household < count; household++) {
    const split = chain() < 0.5 ? "public" : "holdout";
    let state = Math.floor(chain() * 3);
    for (let hour = 0; hour < HOURS; hour++) {
      if (hour > 0) {
        const u = chain();
        state = u < P[state][0] ? 0 : u < P[state][0] + P[state][1] ? 1 : 2;
      }
      const spike = chain() < SPIKE[state];
      // Box–Muller: a normal draw from two uniform ones.
      const z = Math.sqrt(-2 * Math.log(1 - noise())) * Math.cos(2 * Math.PI * noise());
      rows.push({ household, hour, split, state, spike, kwh: Math.max(0, KWH[state][0] + KWH[state][1] * z).toFixed(3) });
    }
  }
  return rows;
}

const testId = (r: Reading) => `hh${String(r.household).padStart(3, "0")}-t${String(r.hour).padStart(2, "0")}`;
const lines = (header: string, rows: string[]) => [header, ...rows].join("\n") + "\n";

function testRows(seed: string, count: number): Reading[] {
  return households(seedrandom(seed), seedrandom(`${seed}:readings`), count);
}

/** The demo solution: id,label,split,order,group,state, for `count` test households (the tests' 60 unless given). */
export function demoSolutionCsv(seed = TEST_SEED, count = HOUSEHOLDS): string {
  return lines(
    "id,label,split,order,group,state",
    testRows(seed, count).map((r) => `${testId(r)},${r.spike ? "spike" : "none"},${r.split},${r.hour},hh${r.household},${STATES[r.state]}`),
  );
}

/**
 * The files competitors download: train.csv (other households, with their labels), test.csv (the
 * households to predict, without labels or splits) and sample_submission.csv (every test id).
 */
export function demoDataFiles(seed: string, count = HOUSEHOLDS): { name: string; csv: string }[] {
  const test = testRows(seed, count);
  const train = households(seedrandom(`${seed}:train`), seedrandom(`${seed}:train-readings`), TRAIN_HOUSEHOLDS);
  return [
    {
      name: "train.csv",
      csv: lines(
        "id,household,hour,kwh,spike",
        train.map((r) => `tr${String(r.household).padStart(3, "0")}-t${String(r.hour).padStart(2, "0")},tr${r.household},${r.hour},${r.kwh},${r.spike ? "spike" : "none"}`),
      ),
    },
    {
      name: "test.csv",
      csv: lines(
        "id,household,hour,kwh",
        test.map((r) => `${testId(r)},hh${r.household},${r.hour},${r.kwh}`),
      ),
    },
    {
      name: "sample_submission.csv",
      csv: lines(
        "id,prediction",
        test.map((r) => `${testId(r)},none`),
      ),
    },
  ];
}

/**
 * A demo predictions file for `solution` (the tests' demo solution unless given): each row right
 * with probability `skill`; an `overfit` file is right on every public row (as if tuned to the
 * leaderboard) and a coin flip on the holdout.
 */
export function demoPredictionsCsv(options: { skill: number; seed: string; overfit?: boolean; solution?: string }): string {
  const rng = seedrandom(options.seed);
  const rows = (options.solution ?? demoSolutionCsv()).trim().split("\n").slice(1);
  return lines(
    "id,prediction",
    rows.map((row) => {
      const [id, label, split] = row.split(",");
      const right = options.overfit ? (split === "public" ? true : rng() < 0.5) : rng() < options.skill;
      return `${id},${right ? label : label === "spike" ? "none" : "spike"}`;
    }),
  );
}
