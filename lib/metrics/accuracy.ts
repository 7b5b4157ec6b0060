import { described, meanMetric, type PerRowMetric } from "./types";

/** Accuracy: 1 when the predicted class is the label's, else 0 (a gain). */
export function accuracy(): PerRowMetric {
  return meanMetric({
    ...described("accuracy"),
    direction: "higher",
    perRow: (prediction, label) => (prediction === label ? 1 : 0),
    display: { scale: 1, root: false },
  });
}
