import type { Figure } from "./mechanism";
import { readOnlyBaseline } from "./scoring";
import { startHarness } from "../harness";
import { client, newCompetitor, publishOverApi, syntheticPredictions, syntheticSolution } from "../../test/support/api";

/**
 * Issue 12's hostile requests, each beside the normal case: how long the server takes to answer it
 * and the slowest of the cheap requests (GET /api/v1/competitions, every 50 ms) it answered
 * meanwhile. A safe server rejects the hostile ones fast and keeps the others fast.
 */
export async function benchHostile(): Promise<Figure[]> {
  const harness = await startHarness(1);
  const [base] = harness.urls;
  const figures: Figure[] = [];
  try {
    const n = 1_000_000;
    await publishOverApi(base, {
      settings: { slug: "hostile", title: "Hostile", dailySubmissionLimit: 1000 },
      solution: syntheticSolution(n),
      mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 10 },
    });
    const player = await newCompetitor(base, "hostile", "Hostile");
    const post = (body: BodyInit, headers: Record<string, string> = {}, path = "/api/v1/competitions/hostile/submissions") =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: player.auth.authorization, "content-type": "text/csv", ...headers },
        body,
        duplex: "half",
      } as RequestInit);

    /** Times `request` while pinging the server; the figure notes the status and the slowest ping. */
    const measure = async (name: string, request: () => Promise<Response>, note = "") => {
      let done = false;
      let slowest = 0;
      const pinger = (async () => {
        while (!done) {
          const t = performance.now();
          await (await fetch(`${base}/api/v1/competitions`)).text();
          slowest = Math.max(slowest, performance.now() - t);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const start = performance.now();
      // The server may answer and close while fetch is still sending: fetch then reports the broken pipe.
      const outcome = await request().then(
        async (response) => ({ status: String(response.status), text: await response.text(), ok: response.ok }),
        (error: Error) => ({ status: `connection closed by the server while sending (${(error.cause as Error | undefined)?.message ?? error.message})`, text: "{}", ok: true }),
      );
      const ms = performance.now() - start;
      done = true;
      await pinger;
      const message = outcome.ok ? "" : ` "${(JSON.parse(outcome.text).error?.message ?? "").slice(0, 70)}"`;
      figures.push({ name, value: ms, unit: "ms", note: `${outcome.status}${message}; slowest concurrent request ${slowest.toFixed(0)} ms${note}` });
    };

    const normal = syntheticPredictions(n, 1);
    await post(normal, { "idempotency-key": "warm" }); // decode and index the solution once
    for (let i = 0; i < 3; i++) await post(syntheticPredictions(n, 10 + i)); // warm the parser's JIT
    const baseline = await readOnlyBaseline(normal);
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await post(syntheticPredictions(n, 20 + i));
      alone.push(performance.now() - t);
    }
    const best = Math.min(...alone);
    figures.push({
      name: "normal: 1e6-row submission, alone (best of 3)",
      value: best,
      unit: "ms",
      note: `${(normal.length / 1e6).toFixed(1)} MB; a server that only reads the body: ${baseline.toFixed(0)} ms, ratio ${(best / baseline).toFixed(1)}`,
    });
    await measure("normal: 1e6-row submission, pinged", () => post(syntheticPredictions(n, 2)));
    await measure("hostile: one 16 MiB line", () => post(`id,prediction\n${"x".repeat(16 * 1024 * 1024)}`));
    await measure("hostile: 4 MiB of commas", () => post(`id,prediction\n${",".repeat(4 * 1024 * 1024)}`));
    const lines = syntheticPredictions(n, 3).split("\n");
    lines[500_000] = "r499999,abc";
    await measure("hostile: a class that is not in the solution", () => post(lines.join("\n")));
    await measure("hostile: a used Idempotency-Key, another file", () => post(syntheticPredictions(n, 4), { "idempotency-key": "warm" }));
    await measure("hostile: 64 MiB chunked JSON body", () => {
      const chunk = new Uint8Array(64 * 1024).fill(32);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({ pull: (c) => ((sent += chunk.length) > 64 * 1024 * 1024 ? c.close() : c.enqueue(chunk)) });
      return post(body, { "content-type": "application/json" }, "/api/v1/users");
    });
    const S = 64;
    const stay = 1 - 1e-6;
    const transition = Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (i === j ? stay : (1 - stay) / (S - 1))));
    const spec = {
      n: 10_000_000,
      model: { kind: "markov", transition, initial: Array.from({ length: S }, (_, i) => (i ? 0 : 1)), chains: [1e7, 9e6, 8e6, 7e6, 6e6, 5e6, 4e6, 3e6] },
      epsBdp: 0.1,
    };
    await measure(`hostile: ${(JSON.stringify(spec).length / 1024).toFixed(0)} KB /calibrate, 64 sticky states`, () =>
      post(JSON.stringify(spec), { "content-type": "application/json" }, "/api/v1/calibrate"),
    );
    await client(base)("/api/v1/competitions"); // still up
  } finally {
    await harness.stop();
  }
  return figures;
}
