import { readFileSync } from "node:fs";

/** Linux's clock ticks a second (`getconf CLK_TCK`), in which /proc/PID/stat counts CPU time. */
const TICKS = 100;

/**
 * The CPU time a process has used, user and system, in seconds, from the text of its
 * /proc/PID/stat (proc(5): fields 14 and 15, counted after the command name in parentheses, which
 * may itself hold spaces and parentheses); an Error when the text is not such a line.
 */
export function parseCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime] = [fields[11], fields[12]].map(Number);
  if (!stat.includes(")") || !Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`not a /proc/PID/stat line: ${JSON.stringify(stat.slice(0, 80))}`);
  return (utime + stime) / TICKS;
}

/** The CPU time process `pid` has used so far, in seconds (Linux). */
export function cpuSeconds(pid: number): number {
  return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, "utf8"));
}
