import { spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { waitUntilReady } from "@/scripts/app";

// scripts/app.ts startApp's wait for the app to answer, with a real child process that never listens:
// the wait ends as soon as the process does, however it ends, instead of at its 60 s deadline.

/** A port nothing listens on (taken, then let go). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a process that prints a line and never listens, and waits for the app it stands for; the error and how long the wait took. */
async function waitFor(script: string, end?: (child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d));
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const started = performance.now();
  setTimeout(() => end?.(child), 300);
  const error = await waitUntilReady(child, `http://127.0.0.1:${await freePort()}`, { stop: async () => void child.kill("SIGKILL"), output: () => output }).then(
    () => null,
    (e: Error) => e,
  );
  return { error, seconds: (performance.now() - started) / 1000 };
}

describe("waiting for the app to start", () => {
  it("fails at once, naming the signal, when the app is killed during start-up", async () => {
    const { error, seconds } = await waitFor("console.log('starting'); setInterval(() => {}, 1000)", (child) => child.kill("SIGKILL"));
    expect(error?.message).toBe("the app was killed by SIGKILL before it was ready\nstarting\n");
    expect(seconds).toBeLessThan(5);
  }, 15_000);

  it("fails at once, naming the code, when the app exits during start-up", async () => {
    const { error, seconds } = await waitFor("console.log('no database'); setTimeout(() => process.exit(2), 300)");
    expect(error?.message).toBe("the app exited with code 2 before it was ready\nno database\n");
    expect(seconds).toBeLessThan(5);
  }, 15_000);
});
