import { check } from "../mechanism/errors";
import { type Display, described, displayed, displayedHalfWidth, type Metric, type SplitData } from "./types";

const SHOWN_AS_IS: Display = { scale: 1, root: false };

/**
 * ROC AUC on 0/1 labels (docs/mechanism.md §4): the probability that a positive row's prediction
 * exceeds a negative row's, ties counting one half (the Mann–Whitney form of the area under the ROC
 * curve; scikit-learn's roc_auc_score for binary labels). Computed by sorting the split's rows by
 * prediction and giving tied predictions their mean rank: O(n log n).
 * It is not a mean of per-row values, but it has bounded differences (McDiarmid): one positive row
 * moves it by at most 1/n₊, one negative row by at most 1/n₋. So Δ = 1/min(n₊, n₋), and
 * Σᵢ cᵢ² = n₊/n₊² + n₋/n₋² = 1/n₊ + 1/n₋, a concentration size of n₊n₋/(n₊ + n₋).
 */
export function rocAuc(): Metric {
  return {
    ...described("roc-auc"),
    direction: "higher",
    evaluate: auc,
    shape: (labels, rows) => {
      const { positives, negatives } = classCounts(labels, rows);
      check(positives > 0 && negatives > 0, `ROC AUC needs both classes, found ${positives} positive and ${negatives} negative rows`);
      // A two-sample U-statistic, not a mean of per-row values.
      return { rows: rows.length, sensitivity: 1 / Math.min(positives, negatives), concentration: (positives * negatives) / (positives + negatives), additive: false };
    },
    display: SHOWN_AS_IS,
    toDisplay: (value) => displayed(SHOWN_AS_IS, value),
    displayHalfWidth: (value, w) => displayedHalfWidth(SHOWN_AS_IS, value, w),
  };
}

function classCounts(labels: Float64Array | Int32Array, rows: Uint32Array): { positives: number; negatives: number } {
  let positives = 0;
  for (let k = 0; k < rows.length; k++) if (labels[rows[k]] === 1) positives++;
  return { positives, negatives: rows.length - positives };
}

/** AUC = (Σ ranks of the positives − n₊(n₊ + 1)/2) / (n₊ n₋), ranks 1…n with ties at their mean rank. */
function auc({ predictions, labels, rows }: SplitData): number {
  const { positives, negatives } = classCounts(labels, rows);
  check(positives > 0 && negatives > 0, `ROC AUC needs both classes, found ${positives} positive and ${negatives} negative rows`);
  const order = Uint32Array.from(rows).sort((a, b) => predictions[a] - predictions[b]);
  let rankSum = 0;
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && predictions[order[end + 1]] === predictions[order[start]]) end++;
    const meanRank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) if (labels[order[k]] === 1) rankSum += meanRank;
    start = end + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
