import { afterEach, describe, expect, it, vi } from "vitest";

// A malformed number in the environment stops the code that would use it, with a message naming the
// variable and what it expects; before, Number("abc") was NaN, and a timer of NaN ms is a timer of
// 1 ms to Node. (This file's modules and environment are its own: vitest runs each file apart.)

const { startScheduler } = await import("@/lib/server/closing/scheduler");

afterEach(() => {
  delete process.env.QUILTBOARD_CLOSE_SECONDS;
  delete process.env.QUILTBOARD_COMPUTE_SECONDS;
  vi.restoreAllMocks();
});

describe("a malformed number in the environment", () => {
  it("QUILTBOARD_CLOSE_SECONDS=abc stops the scheduler, instead of looking for competitions to close every millisecond", () => {
    process.env.QUILTBOARD_CLOSE_SECONDS = "abc";
    const timers = vi.spyOn(globalThis, "setInterval");
    let error: unknown;
    try {
      startScheduler();
    } catch (thrown) {
      error = thrown;
    }
    try {
      // The code before: setInterval(tick, NaN), which Node runs every millisecond.
      expect(timers.mock.calls.map(([, ms]) => ms)).toEqual([]);
      expect((error as Error).message).toBe('QUILTBOARD_CLOSE_SECONDS="abc": expected a whole number of seconds from 1 to 3,600');
    } finally {
      for (const result of timers.mock.results) clearInterval(result.value as NodeJS.Timeout);
    }
  });

  it("QUILTBOARD_CLOSE_SECONDS=30, or unset, checks every 30 s", () => {
    for (const value of ["30", undefined]) {
      if (value === undefined) delete process.env.QUILTBOARD_CLOSE_SECONDS;
      else process.env.QUILTBOARD_CLOSE_SECONDS = value;
      const timers = vi.spyOn(globalThis, "setInterval");
      startScheduler();
      for (const result of timers.mock.results) clearInterval(result.value as NodeJS.Timeout);
      expect(timers.mock.calls.map(([, ms]) => ms)).toEqual([30_000]);
      timers.mockRestore();
    }
  });

  it("QUILTBOARD_COMPUTE_SECONDS=abc refuses a calibration naming the variable, instead of timing every calibration out at once", async () => {
    // Set before the worker pool loads, as a deployment's environment is (the log, which reads its
    // level when it loads, is loaded already, as the entry's check runs before anything loads).
    vi.resetModules();
    await import("@/lib/server/platform/log");
    process.env.QUILTBOARD_COMPUTE_SECONDS = "abc";
    const { calibrate } = await import("@/lib/server/competitions/calibration");
    const small = { n: 1000, model: { kind: "independent" as const }, epsBdp: 0.25 };
    await expect(calibrate(small)).rejects.toThrow('QUILTBOARD_COMPUTE_SECONDS="abc": expected a whole number of seconds from 1 to 3,600');
    process.env.QUILTBOARD_COMPUTE_SECONDS = "20";
    expect(await calibrate(small)).toEqual({ epsDp: 0.25, byMethod: { independent: 0.25 }, exhaustive: true });
  });
});
