import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { secretCommitment, settingsText } from "@/lib/mechanism/commitment";

describe("the commitment (docs/mechanism.md §2.10)", () => {
  it("hashes the secret followed by the settings' text, its keys always in one order", () => {
    const text = settingsText({ correlation: { kind: "groups" }, answerDecimals: 4, sigma: 0.0003, threshold: 0.009, metric: "accuracy", metricParams: {} } as never);
    expect(text).toBe('{"metric":"accuracy","metricParams":{},"correlation":{"kind":"groups"},"sigma":0.0003,"threshold":0.009,"answerDecimals":4}');
    const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
    // SHA-256 over the 32 bytes 0…31 and then the text's UTF-8 bytes, computed the plain way
    expect(secretCommitment(secret, text)).toBe(
      createHash("sha256")
        .update(Buffer.concat([Buffer.from(secret), Buffer.from(text, "utf8")]))
        .digest("hex"),
    );
    expect(secretCommitment(secret, text)).not.toBe(secretCommitment(secret, text.replace("0.009", "0.01")));
    expect(() => secretCommitment(secret.subarray(1), text)).toThrow("the secret must be 32 bytes, got 31");
  });
});
