const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const METRICS: Record<string, string> = {
  accuracy: "Accuracy",
  "error-rate": "Error rate",
  brier: "Brier score",
  "log-loss": "Log-loss",
  "absolute-error": "Mean absolute error",
  "squared-error": "Mean squared error",
};

/** "21 Nov 2026" in UTC, the platform's day boundary. */
export function formatDate(iso: string | Date): string {
  return DATE.format(new Date(iso));
}

export function metricTitle(name: string): string {
  return METRICS[name] ?? name;
}
