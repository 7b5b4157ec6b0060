import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startApp } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { HARNESS_LIMITS } from "@/scripts/harness";
import { lastMailTo, linkIn } from "@/scripts/support/caught-mail";
import { newApiUser, type ApiUser } from "@/scripts/support/rest-client";
import { dropFreshDatabases, freshDatabase } from "./helpers";

// Issue 41's hostile pass (F5): what one account may keep on the server's disk, through the real
// server, on a fresh database of the test's own: the account's bound over all the competitions it
// organizes (smaller until its address is verified) and the free space the server keeps on the
// local store's disk; each refused before the first byte, naming the bound and what is taken.

afterAll(dropFreshDatabases);

const MiB = 1024 * 1024;

async function ownApp(env: Record<string, string>) {
  const databaseUrl = await freshDatabase("disk");
  return startApp({
    port: await freePort(),
    quiet: true,
    logFile: path.resolve("test-results/disk-bounds-app.log"),
    env: { DATABASE_URL: databaseUrl, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!, ...HARNESS_LIMITS, ...env },
  });
}

async function send(base: string, user: ApiUser, method: string, pathname: string, body?: unknown) {
  const answer = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...user.auth, ...(body instanceof Uint8Array ? { "content-type": "application/octet-stream" } : body ? { "content-type": "application/json" } : {}) },
    body: body instanceof Uint8Array ? (body as BodyInit) : body ? JSON.stringify(body) : undefined,
  });
  return { status: answer.status, body: answer.status === 204 ? null : await answer.json() };
}

async function draft(base: string, user: ApiUser): Promise<string> {
  const slug = `disk-${Math.random().toString(36).slice(2, 10)}`;
  const made = await send(base, user, "POST", "/api/v1/competitions", { slug, title: slug, metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 86_400_000).toISOString() });
  expect(made.status).toBe(201);
  return slug;
}

/** POSTs `bytes` as the multipart field `file` named `name`. */
function postFile(base: string, user: ApiUser, slug: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([bytes as BlobPart], { type: "application/octet-stream" }), name);
  return fetch(`${base}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: user.auth, body: form });
}

describe("what one account may keep on the disk", () => {
  it(
    "bounds an account's data files and uploads over all its drafts, tighter until its address is verified, refused before a byte, lost nothing",
    { timeout: 180_000 },
    async () => {
      const app = await ownApp({ QUILTBOARD_UNVERIFIED_DATA_BYTES: String(MiB), QUILTBOARD_ACCOUNT_DATA_BYTES: String(4 * MiB), QUILTBOARD_FILES_FREE_BYTES: "0" });
      try {
        const organizer = await newApiUser(app.url, "organizer");
        const [first, second] = [await draft(app.url, organizer), await draft(app.url, organizer)];
        expect((await postFile(app.url, organizer, first, "a.bin", new Uint8Array(600 * 1024))).status).toBe(201);
        // Another draft of the same account: its room is the account's, not the draft's.
        const refused = await send(app.url, organizer, "POST", `/api/v1/competitions/${second}/attachments/uploads`, { name: "b.bin", size: 600 * 1024 });
        expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
          413,
          "payload_too_large",
          "one account may hold at most 1 MiB of data files until its address is verified; the data files of the competitions you organize and your uploads in progress take 614400 bytes, and this file is 614400 bytes: verify your address (the link we mailed you, or send it again from your account page) to hold up to 4 MiB",
        ]);
        // Sent whole, its name comes with its body (it might replace a file): counted once it is in the store, refused as it is listed, and removed.
        const whole = await postFile(app.url, organizer, second, "b.bin", new Uint8Array(600 * 1024));
        expect([whole.status, (await whole.json()).error.message]).toEqual([
          413,
          expect.stringMatching(/^one account may hold at most 1 MiB of data files until its address is verified; /),
        ]);
        expect((await send(app.url, organizer, "GET", `/api/v1/competitions/${second}/attachments`)).body.attachments).toEqual([]);

        const link = linkIn(await lastMailTo(organizer.email, /Verify your email/), "/verify-email?token=");
        expect((await send(app.url, organizer, "POST", "/api/v1/email-verification", { token: link.searchParams.get("token") })).status).toBe(200);
        const started = await send(app.url, organizer, "POST", `/api/v1/competitions/${second}/attachments/uploads`, { name: "b.bin", size: 600 * 1024 });
        expect(started.status).toBe(201);
        const more = [];
        for (const name of ["c.bin", "d.bin"]) more.push(await send(app.url, organizer, "POST", `/api/v1/competitions/${second}/attachments/uploads`, { name, size: MiB }));
        expect(more.map((m) => m.status)).toEqual([201, 201]);
        // 2 × 600 KiB and 2 MiB are held (a file and three reservations): 1 MiB more passes 4 MiB.
        const over = await send(app.url, organizer, "POST", `/api/v1/competitions/${first}/attachments/uploads`, { name: "e.bin", size: MiB });
        expect([over.status, over.body.error.message]).toEqual([
          413,
          "one account may hold at most 4 MiB of data files; the data files of the competitions you organize and your uploads in progress take 3.17 MiB, and this file is 1 MiB: delete files or abandon uploads first",
        ]);
        // An upload abandoned gives its room back.
        expect((await send(app.url, organizer, "DELETE", `/api/v1/competitions/${second}/attachments/uploads/${more[1].body.id}`)).status).toBe(200);
        expect((await send(app.url, organizer, "POST", `/api/v1/competitions/${first}/attachments/uploads`, { name: "e.bin", size: MiB })).status).toBe(201);

        // A bound that shrank after the start (a new address, not yet verified) refuses the completion
        // and keeps its parts: the upload completes once the new address is verified.
        const upload = `/api/v1/competitions/${second}/attachments/uploads/${started.body.id}`;
        expect((await send(app.url, organizer, "PUT", `${upload}/parts/1`, new Uint8Array(600 * 1024).fill(7))).status).toBe(200);
        const moved = `moved-${organizer.email}`;
        expect((await send(app.url, organizer, "PUT", "/api/v1/me/email", { email: moved, currentPassword: organizer.password })).status).toBe(200);
        const shrunk = await send(app.url, organizer, "POST", `${upload}/complete`);
        expect([shrunk.status, shrunk.body.error.message]).toEqual([
          413,
          expect.stringMatching(/^one account may hold at most 1 MiB of data files until its address is verified; /),
        ]);
        expect((await send(app.url, organizer, "GET", upload)).body.received).toEqual([1]);
        const again = linkIn(await lastMailTo(moved, /Verify your email/), "/verify-email?token=");
        expect((await send(app.url, organizer, "POST", "/api/v1/email-verification", { token: again.searchParams.get("token") })).status).toBe(200);
        const completed = await send(app.url, organizer, "POST", `${upload}/complete`);
        expect([completed.status, completed.body.size]).toEqual([201, 600 * 1024]);
      } finally {
        await app.stop();
      }
    },
  );

  it("keeps the local store's disk free as configured: 507 before the first byte, naming the free space, nothing written", { timeout: 120_000 }, async () => {
    const app = await ownApp({ QUILTBOARD_FILES_FREE_BYTES: String(1024 ** 5) });
    try {
      const organizer = await newApiUser(app.url, "organizer");
      const slug = await draft(app.url, organizer);
      const resumable = await send(app.url, organizer, "POST", `/api/v1/competitions/${slug}/attachments/uploads`, { name: "a.bin", size: 1024 });
      expect([resumable.status, resumable.body.error.code]).toEqual([507, "insufficient_storage"]);
      expect(resumable.body.error.message).toMatch(
        /^the server keeps 1048576 GiB of its disk free; \d+(\.\d\d)? GiB are free, uploads in progress may still write 0 bytes, and this file would write 2048 bytes: nothing was written; tell the operators$/,
      );
      const whole = await postFile(app.url, organizer, slug, "a.bin", new Uint8Array(1024));
      expect([whole.status, (await whole.json()).error.code]).toEqual([507, "insufficient_storage"]);
      expect((await send(app.url, organizer, "GET", `/api/v1/competitions/${slug}/attachments`)).body.attachments).toEqual([]);
    } finally {
      await app.stop();
    }
  });
});
