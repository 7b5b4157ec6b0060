import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/platform/errors";

// The worker pool with a 1 s limit (each test file has its own modules, so the setting is this file's).
process.env.QUILTBOARD_COMPUTE_SECONDS = "1";
const { calibrate } = await import("@/lib/server/competitions/calibration");
const { compute } = await import("@/lib/server/platform/compute");

const S = 64;
const stay = 1 - 1e-6;
const hostile = {
  n: 10_000_000,
  model: {
    kind: "markov" as const,
    transition: Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (i === j ? stay : (1 - stay) / (S - 1)))),
    initial: Array.from({ length: S }, (_, i) => (i ? 0 : 1)),
  },
  epsBdp: 0.1,
};

describe("the worker pool for heavy math", () => {
  it("stops a calibration past its time with a 422, and the work queued behind it still gets a fresh worker and its right answer", async () => {
    const [heavy, light] = await Promise.allSettled([calibrate(hostile), calibrate({ n: 1000, model: { kind: "independent" }, epsBdp: 0.25 })]);
    expect(heavy.status).toBe("rejected");
    const error = (heavy as PromiseRejectedResult).reason as AppError;
    expect([error.status, error.message]).toEqual([422, "this calibration needs more than 1 s of work: use fewer states, fewer different chain lengths or a smaller n"]);
    expect(light).toEqual({ status: "fulfilled", value: { epsDp: 0.25, byMethod: { independent: 0.25 }, exhaustive: true } });
  });

  it("passes the pure code's input errors on as 422s", async () => {
    await expect(
      calibrate({
        n: 10,
        model: {
          kind: "markov",
          transition: [
            [0.5, 0.4],
            [0.5, 0.5],
          ],
        },
        epsBdp: 0.1,
      }),
    ).rejects.toThrow(/row/);
  });
});

describe("lanes", () => {
  it("runs organizers' work on workers of its own: an organizer's calibration never waits behind anonymous ones", async () => {
    // The organizers' worker is started first: what is timed below is waiting, not a worker's start
    // (loading its code from source took over 1 s on a busy 2-core machine, past the 1 s limit).
    const small = { n: 1000, model: { kind: "independent" as const }, epsBdp: 0.25 };
    expect(await compute("answerCalibration", small)).toMatchObject({ epsDp: 0.25 });
    // Anonymous POST /calibrate work fills its lane: each hostile calibration holds a worker for the 1 s limit.
    const anonymous = Promise.allSettled([calibrate(hostile), calibrate(hostile), calibrate(hostile)]);
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    expect(await compute("answerCalibration", small)).toMatchObject({ epsDp: 0.25 });
    expect(performance.now() - started).toBeLessThan(800);
    expect((await anonymous).map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
  });
});
