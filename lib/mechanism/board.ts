import type { AnswerKind } from "./thresholdout";

/**
 * What the live board shows for a team (docs/mechanism.md §2.6, "public first"): its best public
 * answer — the exact public score Q(D) that Thresholdout's check found within about T of the holdout,
 * which the team already saw, so showing it releases nothing new — and, for a team without one, its
 * latest holdout answer, whose noise does not depend on any selection (the latest answer is picked
 * by time, not by its value, so it carries no winner's curse). The same rule picks a team's default
 * final submission.
 */
export type BoardKind = "public" | "holdout";

/** A team's row on the board: the shown value in [0, 1], which kind of answer it is, and when it was given. */
export type BoardRow = { value: number; kind: BoardKind; at: Date };

/** An answer as the board sees it. */
export type BoardAnswer = { kind: AnswerKind | "capped" | "late"; value: number | null; at: Date };

/** Whether value a beats value b in the metric's direction. */
function beats(direction: "higher" | "lower", a: number, b: number): boolean {
  return direction === "higher" ? a > b : a < b;
}

/**
 * The row after one more answer: a public answer replaces the row when there is no public one yet or
 * it beats it (ties keep the earlier); a holdout answer replaces the row only while the team has no
 * public answer. ⊥, limits and late answers change nothing.
 */
export function nextBoardRow(row: BoardRow | null, answer: BoardAnswer, direction: "higher" | "lower"): BoardRow | null {
  if (answer.value === null) return row;
  if (answer.kind === "public") {
    return row === null || row.kind === "holdout" || beats(direction, answer.value, row.value) ? { value: answer.value, kind: "public", at: answer.at } : row;
  }
  if (answer.kind === "holdout") return row === null || row.kind === "holdout" ? { value: answer.value, kind: "holdout", at: answer.at } : row;
  return row;
}

/** The row of two teams merged: as if the absorbed team's answers had been the survivor's (the better public row, else the later holdout one). */
export function mergeBoardRows(a: BoardRow | null, b: BoardRow | null, direction: "higher" | "lower"): BoardRow | null {
  if (a === null || b === null) return a ?? b;
  const [earlier, later] = a.at <= b.at ? [a, b] : [b, a];
  return nextBoardRow(earlier, later, direction);
}

/** The submission the rule picks from a team's answers (its default final submission): the id of the answer that made its row, or null. */
export function boardSubmission<T extends BoardAnswer & { id: string }>(answers: T[], direction: "higher" | "lower"): string | null {
  let row: BoardRow | null = null;
  let id: string | null = null;
  for (const answer of [...answers].sort((x, y) => x.at.getTime() - y.at.getTime())) {
    const next = nextBoardRow(row, answer, direction);
    if (next !== row) id = answer.id;
    row = next;
  }
  return id;
}
