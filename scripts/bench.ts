// npm run bench -- [name…] – runs the benchmarks, prints each figure and one JSON report.
import { benchMechanism, type Figure } from "./bench/mechanism";
import { benchLeaderboard } from "./bench/leaderboard";
import { benchFaults, benchLoad } from "./bench/reliability";
import { benchHostile } from "./bench/hostile";
import { benchScoring } from "./bench/scoring";
import { benchPreviews } from "./bench/previews";

const BENCHES: Record<string, () => Figure[] | Promise<Figure[]>> = {
  mechanism: benchMechanism,
  scoring: benchScoring,
  leaderboard: benchLeaderboard,
  load: benchLoad,
  faults: benchFaults,
  hostile: benchHostile,
  previews: benchPreviews,
};

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
const report: Record<string, Figure[]> = {};
for (const name of names) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; choose from ${Object.keys(BENCHES).join(", ")}`);
    process.exit(1);
  }
  console.log(`# ${name}`);
  report[name] = await bench();
  for (const f of report[name]) console.log(`${f.name.padEnd(48)} ${f.value.toFixed(f.value < 10 ? 3 : 1).padStart(10)} ${f.unit}${f.note ? `  (${f.note})` : ""}`);
}
console.log(JSON.stringify({ machine: `${process.platform} ${process.arch} node ${process.version}`, report }, null, 2));
