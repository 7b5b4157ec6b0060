import "server-only";
import type { Solution } from "@/lib/csv/solution";
import { env } from "@/lib/server/platform/env";
import { gauge } from "@/lib/server/platform/metrics";

/**
 * The decoded solutions this process keeps (solutions.ts loadSolution decodes them), with what is
 * derived from each (scoring's id index: `derived`), within a budget of bytes: the least recently
 * used go first. A solution is keyed by its competition and its file's hash; `final` marks one
 * checked against the database after its competition was published, whose file can no longer
 * change. A solution in use when it is pushed out stays in memory until its users are done.
 */
export class SolutionCache {
  private readonly entries = new Map<string, Entry>(); // least recently used first
  private readonly bySolution = new WeakMap<Solution, Entry>();
  private readonly memos = new WeakMap<Solution, Map<string, unknown>>();
  private total = 0;

  constructor(private readonly budget: () => number) {}

  /** The competition's entry, now the most recently used; undefined when none is kept. */
  get(competitionId: string): Entry | undefined {
    const entry = this.entries.get(competitionId);
    if (entry) {
      this.entries.delete(competitionId);
      this.entries.set(competitionId, entry);
    }
    return entry;
  }

  /** Keeps a competition's decoded solution (replacing what was kept for it), then keeps within the budget. */
  keep(competitionId: string, sha256: string, solution: Solution, final: boolean): void {
    this.forget(competitionId);
    const entry: Entry = { competitionId, sha256, solution, final, bytes: solutionBytes(solution) };
    this.entries.set(competitionId, entry);
    this.bySolution.set(solution, entry);
    this.total += entry.bytes;
    this.trim(competitionId);
  }

  /** Drops what is kept for a competition (its draft deleted, the competition closed, a new file). */
  forget(competitionId: string): void {
    const entry = this.entries.get(competitionId);
    if (!entry) return;
    this.entries.delete(competitionId);
    this.bySolution.delete(entry.solution);
    this.total -= entry.bytes;
  }

  /**
   * A value derived from `solution`, made once by `make` and kept as long as the solution is; its
   * `bytes` (the most it will hold) count toward the budget while the solution is kept.
   */
  derived<T>(solution: Solution, name: string, make: () => { value: T; bytes: number }): T {
    let memo = this.memos.get(solution);
    if (!memo) this.memos.set(solution, (memo = new Map()));
    if (memo.has(name)) return memo.get(name) as T;
    const { value, bytes } = make();
    memo.set(name, value);
    const entry = this.bySolution.get(solution);
    if (entry) {
      entry.bytes += bytes;
      this.total += bytes;
      this.trim(entry.competitionId);
    }
    return value;
  }

  /** What is kept: each competition's id, least recently used first, and the bytes all of it takes. */
  stats(): { competitions: string[]; bytes: number } {
    return { competitions: [...this.entries.keys()], bytes: this.total };
  }

  /** Pushes out the least recently used until the rest fits the budget; `keep` (the entry just used) stays whatever its size. */
  private trim(keep: string): void {
    for (const [id, entry] of this.entries) {
      if (this.total <= this.budget()) return;
      if (id !== keep) this.forget(entry.competitionId);
    }
  }
}

type Entry = { competitionId: string; sha256: string; solution: Solution; final: boolean; bytes: number };

/** The bytes a decoded solution's arrays take, and its classes' and states' names (two bytes a character, plus a string's header). */
function solutionBytes(s: Solution): number {
  const names = (list: string[] | null | undefined) => (list ?? []).reduce((sum, name) => sum + 2 * name.length + 32, 0);
  return (
    s.ids.byteLength +
    s.labels.byteLength +
    s.split.byteLength +
    (s.order?.byteLength ?? 0) +
    (s.groups ? s.groups.codes.byteLength + s.groups.names.byteLength : 0) +
    (s.states?.codes.byteLength ?? 0) +
    names(s.classes) +
    names(s.states?.names)
  );
}

// One cache per process: Next.js may load this module more than once (route handlers, pages), and
// each copy would hold solutions of its own within a budget of its own.
const shared = globalThis as unknown as { quiltboardSolutions?: SolutionCache };

/** This process's cache, within QUILTBOARD_SOLUTION_CACHE_MB. */
export const solutionCache = (shared.quiltboardSolutions ??= new SolutionCache(() => env().QUILTBOARD_SOLUTION_CACHE_MB * 1024 * 1024));

gauge("quiltboard_solution_cache_bytes", "Bytes of the decoded solutions this process keeps and of what is derived from them", () => solutionCache.stats().bytes);
