import type { ResultKind } from "@/lib/responses";

/**
 * What each kind of answer means, in the words a team reads it in (docs/mechanism.md §2.6): a charge
 * is worded neutrally, and every limit that is not the team's budget says which limit it is.
 */
export const ANSWER_KIND: Record<ResultKind, string> = {
  public: "Public score, checked against the holdout",
  holdout: "Checked on the holdout: one unit spent",
  exhausted: "Budget spent: public score, not checked",
  limit: "Limit of scored submissions reached: not checked",
  capped: "The competition's holdout cap is reached: not checked",
  late: "Late: exact holdout score",
};
