import { createHash } from "node:crypto";
import { check } from "./errors";

/**
 * The commitment a competition publishes (docs/mechanism.md §2.10): SHA-256 over the solution file's
 * exact bytes, and SHA-256 over the mechanism's secret followed by the settings its answers are drawn
 * with. Publishing them fixes both: once the secret, the settings and the solution are revealed after
 * the close, anyone can check that they are the ones fixed at publishing and recompute every released
 * answer from them. A hash of 32 random bytes says nothing about them, nor about the labels.
 */

/** The settings the answers are drawn with, in the form the secret's commitment hashes them (keys in this order, numbers as JSON writes them). */
export type CommittedSettings = {
  metric: string;
  metricParams: Record<string, number>;
  correlation: unknown;
  sigma: number;
  threshold: number;
  answerDecimals: number;
};

/** The settings as the exact text the commitment hashes: JSON with its keys in CommittedSettings' order. */
export function settingsText(settings: CommittedSettings): string {
  const { metric, metricParams, correlation, sigma, threshold, answerDecimals } = settings;
  return JSON.stringify({ metric, metricParams, correlation, sigma, threshold, answerDecimals });
}

/** SHA-256(secret ‖ UTF-8(settings text)), lower-case hex. */
export function secretCommitment(secret: Uint8Array, settings: string): string {
  check(secret.length === 32, `the secret must be 32 bytes, got ${secret.length}`);
  return createHash("sha256").update(secret).update(settings, "utf8").digest("hex");
}
