// The worker thread of compute.ts: runs the heavy pure functions (quilt searches, plans, curves,
// the attack preview) off the request thread. Imports only pure modules; every task's arguments and
// result are plain data (structured clone).
import { randomBytes } from "node:crypto";
import { parentPort } from "node:worker_threads";
import { answerCalibration, planMechanism } from "../../calibration/calibrate";
import { budgetByCalibration, budgetByTolerance, epsBdpByNoise } from "../../calibration/curves";
import { resolveCorrelation } from "../../calibration/resolve";
import { previewBoostingAttack } from "../../experiments/preview";

type AttackOptions = Omit<Parameters<typeof previewBoostingAttack>[0], "newSecret">;

export const TASKS = {
  answerCalibration,
  resolveCorrelation,
  planMechanism,
  curves: (
    setting: Parameters<typeof budgetByTolerance>[0],
    input: {
      beta: number;
      maxQueries: number;
      split?: number;
      tolerance: number;
      budget: number;
      recommended: { sigma: number; threshold: number };
      taus: number[];
      sigmas: number[];
    },
  ) => ({
    budgetByTolerance: budgetByTolerance(setting, { beta: input.beta, maxQueries: input.maxQueries, split: input.split }, input.recommended, input.taus),
    epsBdpByNoise: input.budget > 0 ? epsBdpByNoise(setting, input.budget, input.sigmas) : [],
    budgetByCalibration: budgetByCalibration(setting, { tolerance: input.tolerance, beta: input.beta, maxQueries: input.maxQueries, split: input.split }),
  }),
  // Each simulated attacker gets a fresh mechanism secret, drawn here.
  previewAttack: (options: AttackOptions) => previewBoostingAttack({ ...options, newSecret: () => randomBytes(32) }),
};

export type Tasks = typeof TASKS;
export type TaskMessage = { task: keyof Tasks; args: unknown[] };
export type TaskReply = { ok: true; value: unknown } | { ok: false; name: string; message: string };

parentPort?.on("message", async ({ task, args }: TaskMessage) => {
  let reply: TaskReply;
  try {
    reply = { ok: true, value: await (TASKS[task] as (...a: unknown[]) => unknown)(...args) };
  } catch (error) {
    reply = { ok: false, name: (error as Error).name, message: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
