// npm run bench -- [name…] [--flag=value…] – runs the benchmarks, prints each figure and one JSON
// report; flags go to every bench named (only files has any: scripts/bench/files.ts).
import { benchMechanism, type Figure } from "./bench/mechanism";
import { benchLeaderboard } from "./bench/leaderboard";
import { benchFaults, benchLoad } from "./bench/reliability";
import { benchHostile } from "./bench/hostile";
import { benchScoring } from "./bench/scoring";
import { benchFiles } from "./bench/files";
import { benchPreviews } from "./bench/previews";

const BENCHES: Record<string, (flags: string[]) => Figure[] | Promise<Figure[]>> = {
  mechanism: benchMechanism,
  scoring: benchScoring,
  leaderboard: benchLeaderboard,
  load: benchLoad,
  faults: benchFaults,
  hostile: benchHostile,
  files: benchFiles,
  previews: benchPreviews,
};

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith("--"));
const named = args.filter((a) => !a.startsWith("--"));
const names = named.length ? named : Object.keys(BENCHES);
const report: Record<string, Figure[]> = {};
for (const name of names) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; choose from ${Object.keys(BENCHES).join(", ")}`);
    process.exit(1);
  }
  console.log(`# ${name}`);
  report[name] = await bench(flags);
  for (const f of report[name]) console.log(`${f.name.padEnd(48)} ${f.value.toFixed(f.value < 10 ? 3 : 1).padStart(10)} ${f.unit}${f.note ? `  (${f.note})` : ""}`);
}
console.log(JSON.stringify({ machine: `${process.platform} ${process.arch} node ${process.version}`, report }, null, 2));
