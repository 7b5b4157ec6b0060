import { described, type Metric } from "./types";

/** Accuracy: 1 when the predicted class is the label's, else 0 (a gain). */
export function accuracy(): Metric {
  return {
    ...described("accuracy"),
    direction: "higher",
    perRow: (prediction, label) => (prediction === label ? 1 : 0),
    toDisplay: (mean) => mean,
  };
}
