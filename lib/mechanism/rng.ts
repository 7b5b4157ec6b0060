import { createHmac } from "node:crypto";
import seedrandom from "seedrandom";

/** A uniform source on [0, 1), one stream per draw. */
export type Rng = () => number;

/** What a stream is drawn for; together with the team and query index it names exactly one draw. */
export type Purpose = "threshold" | "gamma" | "answer";

/** Opens the stream for one (query index, purpose) of one team. */
export type Streams = (queryIndex: number, purpose: Purpose) => Rng;

/**
 * Streams keyed by HMAC-SHA256(secret, team ‖ query index ‖ purpose) (docs/mechanism.md §2.3).
 * The same secret replays every draw exactly (audit); without it the seeds are unpredictable.
 * Every (team, index, purpose) gets its own stream, so no stream is reused or shared across teams.
 * @param secret the competition's 32-byte secret
 * @param team a stable team identifier
 */
export function createStreams(secret: Uint8Array, team: string): Streams {
  return (queryIndex, purpose) => {
    const seed = createHmac("sha256", secret)
      .update(JSON.stringify([team, queryIndex, purpose]))
      .digest("hex");
    return seedrandom(seed);
  };
}
