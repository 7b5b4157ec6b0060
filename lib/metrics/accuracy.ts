import { type Metric, METRIC_TITLES } from "./types";

/** Accuracy: 1 when the predicted class is the label's, else 0 (a gain). */
export function accuracy(): Metric {
  return {
    name: "accuracy",
    title: METRIC_TITLES["accuracy"],
    direction: "higher",
    input: "class",
    perRow: (prediction, label) => (prediction === label ? 1 : 0),
    toDisplay: (mean) => mean,
  };
}
