import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { setPassword } from "@/scripts/db/admin";
import { embeddedPassword, startEmbeddedPostgres } from "@/scripts/db/embedded";

// The embedded PostgreSQL of `npm start` listens on 127.0.0.1 only, but anyone on the machine can
// reach that: its superuser password must not be one printed in the source.
const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-embedded-"));
chmodSync(dir, 0o755); // the postgres system user must reach its data directory
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `password` opens the server at `url` (whose own password is replaced). */
async function opens(url: string, password: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: Object.assign(new URL(url), { password: encodeURIComponent(password) }).toString() });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

describe("the embedded PostgreSQL's superuser password", () => {
  it("is made at random for each data directory, kept beside it for its owner only, and replaces the old fixed one", { timeout: 120_000 }, async () => {
    const dataDir = path.join(dir, "pg");
    const first = await startEmbeddedPostgres({ dataDir, database: "quiltboard", persistent: true });
    const password = embeddedPassword(dataDir)!;
    expect(password).toMatch(/^[\w-]{43}$/);
    expect(statSync(`${dataDir}.password`).mode & 0o777).toBe(0o600);
    expect(await opens(first.url, password)).toBe(true);
    expect(await opens(first.url, "quiltboard")).toBe(false);

    // A directory made before passwords were generated: the fixed password, no file.
    await setPassword(first.url, "quiltboard");
    await first.stop();
    rmSync(`${dataDir}.password`);
    const again = await startEmbeddedPostgres({ dataDir, database: "quiltboard", persistent: true });
    try {
      const renewed = embeddedPassword(dataDir)!;
      expect(renewed).not.toBe(password);
      expect(await opens(again.url, renewed)).toBe(true);
      expect(await opens(again.url, "quiltboard")).toBe(false);
    } finally {
      await again.stop();
    }
  });
});
