import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { api, newApiUser, putCsv, runCalibrateCli } from "./helpers";

const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
const slug = () => `api-${randomBytes(5).toString("hex")}`;

describe("an organizer through the REST API only", () => {
  it("creates, uploads a Markov-correlated solution, fits the chain, plans the mechanism and publishes", async () => {
    const { auth } = await newApiUser("organizer");
    const s = slug();
    const created = await api("/api/v1/competitions", {
      headers: auth,
      body: { slug: s, title: "API competition", description: "Hourly *spikes*.", metric: { name: "accuracy" }, endsAt: future, dailySubmissionLimit: 4, maxTeamSize: 3 },
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ slug: s, status: "draft", metric: { name: "accuracy", direction: "higher" }, mechanism: null });

    const upload = await putCsv(`/api/v1/competitions/${s}/solution`, demoSolutionCsv(), auth);
    expect(upload.status).toBe(200);
    const counts = await upload.json();
    expect(counts.rows).toBe(2880);
    expect(counts.public + counts.holdout).toBe(2880);

    const correlation = await api(`/api/v1/competitions/${s}/correlation`, { method: "PUT", headers: auth, body: { model: { kind: "markov", fit: { alpha: 1 } } } });
    expect(correlation.status).toBe(200);
    const summary = await correlation.json();
    // The demo splits by household: one chain per holdout household (32 of 60).
    expect(summary.chain).toMatchObject({ stateNames: ["high", "low", "mid"], chains: 32, reversible: expect.any(Boolean) });
    expect(summary.n).toBe(counts.holdout);

    const mechanism = { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 };
    const planned = await api(`/api/v1/competitions/${s}/mechanism`, { method: "PUT", headers: auth, body: mechanism });
    expect(planned.status).toBe(200);
    const plan = await planned.json();
    expect(plan).toMatchObject({ sigma: 0.01, threshold: 0.04, budget: 20, guarantee: { holds: false } });

    // The same numbers from the public calibrate endpoint and from `npm run calibrate`.
    const spec = { n: summary.n, model: summary.model, mechanism: { ...mechanism, maxQueries: plan.guarantee.maxQueries } };
    const viaApi = await (await api("/api/v1/calibrate", { body: spec })).json();
    expect(viaApi).toEqual(plan);
    expect(await runCalibrateCli(spec)).toEqual(plan);

    const published = await api(`/api/v1/competitions/${s}/publish`, { method: "POST", headers: auth });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ status: "published", mechanism: { sigma: 0.01, threshold: 0.04, budget: 20 } });
    expect((await putCsv(`/api/v1/competitions/${s}/solution`, demoSolutionCsv(), auth)).status).toBe(409);

    const details = await (await api(`/api/v1/competitions/${s}`)).json();
    expect(details.status).toBe("published");
    expect(JSON.stringify(details)).not.toMatch(/secret|spike,|holdout,/);
  });

  it("rejects a bad solution with the lines named and nothing stored", async () => {
    const { auth } = await newApiUser("organizer");
    const s = slug();
    await api("/api/v1/competitions", { headers: auth, body: { slug: s, title: "Bad files", metric: { name: "brier" }, endsAt: future } });
    const response = await putCsv(`/api/v1/competitions/${s}/solution`, "id,label,split\na,1,public\na,2,holdout\n", auth);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.details).toEqual([{ line: 3, message: 'duplicate id "a" (first on line 2)' }]);
    const mechanism = await api(`/api/v1/competitions/${s}/mechanism`, { method: "PUT", headers: auth, body: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
    expect(mechanism.status).toBe(409);
  });

  it("answers POST /api/v1/calibrate for both maps, naming bad fields", async () => {
    const forward = await (await api("/api/v1/calibrate", { body: { n: 1000, model: { kind: "groups", maxGroupSize: 4 }, epsDp: 0.1 } })).json();
    expect(forward).toEqual({ epsBdp: expect.closeTo(0.4, 12), byMethod: { groups: expect.closeTo(0.4, 12) }, exhaustive: true });
    const bad = await api("/api/v1/calibrate", { body: { n: -3, model: { kind: "markov", transition: [[1]] }, epsBdp: 1 } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.message).toContain("n:");
  });
});
