import "server-only";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AppError } from "./errors";
import { env, INSIDE_NEXT } from "./env";
import type { TaskMessage, TaskReply, Tasks } from "./compute-worker";
import { MathInputError } from "@/lib/mechanism/errors";

/**
 * Worker threads for the heavy math (compute-worker.ts), so that no calibration, however hostile,
 * keeps the server from answering other requests. Each task may run for QUILTBOARD_COMPUTE_SECONDS
 * (default 20); past that its worker is stopped and replaced and the caller gets a 422 saying the
 * input asks for too much work. Two lanes, each with workers and a queue of its own, so that
 * anonymous work (POST /api/v1/calibrate, limited per address only) can fill its own lane and never
 * delay an organizer's preview or plan: `compute` (organizers and the server itself: as many
 * workers as cores less one, up to 4; 32 waiting) and `computeForAnyone` (one worker; 8 waiting).
 * Beyond a lane's queue the answer is a 503 with Retry-After. Workers start when first needed.
 */
/** A task waiting for or running on a worker, with the time it may take (QUILTBOARD_COMPUTE_SECONDS when it was asked for). */
type Job = { message: TaskMessage; seconds: number; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Slot = { worker: Worker | null; job: Job | null; timer: NodeJS.Timeout | null };
type Lane = { slots: Slot[]; queue: Job[]; queueLimit: number };

function lane(size: number, queueLimit: number): Lane {
  return { slots: Array.from({ length: size }, () => ({ worker: null, job: null, timer: null })), queue: [], queueLimit };
}

const organizers = lane(Math.max(1, Math.min(4, availableParallelism() - 1)), 32);
const anyone = lane(1, 8);

/** Runs `task` of compute-worker.ts on a worker thread of the organizers' lane and resolves with its result. */
export function compute<K extends keyof Tasks>(task: K, ...args: Parameters<Tasks[K]>): Promise<Awaited<ReturnType<Tasks[K]>>> {
  return run(organizers, task, args);
}

/** `compute` for work anyone may ask for without an account (POST /api/v1/calibrate): its own lane. */
export function computeForAnyone<K extends keyof Tasks>(task: K, ...args: Parameters<Tasks[K]>): Promise<Awaited<ReturnType<Tasks[K]>>> {
  return run(anyone, task, args);
}

function run<K extends keyof Tasks>(lane: Lane, task: K, args: Parameters<Tasks[K]>): Promise<Awaited<ReturnType<Tasks[K]>>> {
  if (lane.queue.length >= lane.queueLimit) return Promise.reject(new AppError("unavailable", "the calibration service is busy; try again in a few seconds"));
  return new Promise((resolve, reject) => {
    const seconds = env().QUILTBOARD_COMPUTE_SECONDS;
    lane.queue.push({ message: { task, args }, seconds, resolve: resolve as (value: unknown) => void, reject });
    dispatch(lane);
  });
}

function dispatch(lane: Lane): void {
  for (const slot of lane.slots) {
    if (slot.job || lane.queue.length === 0) continue;
    const job = lane.queue.shift()!;
    slot.job = job;
    slot.worker ??= startWorker(lane, slot);
    slot.timer = setTimeout(() => {
      // Stop the worker first: finishing hands the slot its next job, which needs a fresh worker.
      void slot.worker?.terminate();
      slot.worker = null;
      finish(lane, slot, () =>
        job.reject(
          new AppError("unprocessable_entity", `this calibration needs more than ${job.seconds} s of work: use fewer states, fewer different chain lengths or a smaller n`),
        ),
      );
    }, job.seconds * 1000);
    slot.worker.postMessage(job.message);
  }
}

function startWorker(lane: Lane, slot: Slot): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: 1024 } };
  // Inside Next the worker entry is bundled into JavaScript; run from source
  // (tsx: the demo seed, the tests) the worker registers tsx itself, as Node 20 does not pass
  // tsx's hooks on to worker threads.
  const worker = INSIDE_NEXT
    ? new Worker(new URL("./compute-worker.ts", import.meta.url), options)
    : new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL("compute-worker.ts", import.meta.url).href)}); });`, {
        ...options,
        eval: true,
      });
  worker.unref();
  worker.on("message", (reply: TaskReply) => {
    const job = slot.job;
    if (!job || slot.worker !== worker) return; // a stopped worker's last word belongs to no job
    finish(lane, slot, () =>
      reply.ok ? job.resolve(reply.value) : job.reject(reply.name === "MathInputError" ? new MathInputError(reply.message) : new Error(`${reply.name}: ${reply.message}`)),
    );
  });
  worker.on("error", (error) => {
    if (slot.worker !== worker) return;
    slot.worker = null;
    const job = slot.job;
    if (job) finish(lane, slot, () => job.reject(error));
  });
  return worker;
}

function finish(lane: Lane, slot: Slot, settle: () => void): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  slot.job = null;
  settle();
  dispatch(lane);
}
