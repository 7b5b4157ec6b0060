import { afterAll, beforeAll } from "vitest";
import { startS3, type S3Peer } from "@/scripts/support/s3";

/**
 * The two file stores an integration test file runs its tests in (`describe.each(stores.backends)`):
 * the local directory and S3, through an s3rver of the file's own started before its tests. Each
 * backend's function switches process.env to its store; `saved` is the environment as the file found
 * it, put back after the file.
 */
export function fileStores() {
  const saved = { ...process.env };
  const stores = {
    saved,
    s3: undefined as unknown as S3Peer,
    backends: [
      ["local", () => void (process.env = { ...saved })],
      ["s3", () => void (process.env = { ...saved, ...stores.s3.env })],
    ] as [string, () => void][],
  };
  beforeAll(async () => {
    stores.s3 = await startS3();
  });
  afterAll(async () => {
    process.env = saved;
    await stores.s3?.stop();
  });
  return stores;
}
