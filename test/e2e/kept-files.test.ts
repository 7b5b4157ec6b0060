import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { startS3, type S3Peer } from "@/test/support/s3";
import { newCompetitor, postCsv, publishedCompetition } from "./helpers";

// A submission's file through an app on the S3 store, as a competitor meets it: the answer comes
// once the file is in the bucket, and the file downloads back byte for byte (unpacked from its
// compressed copy).

describe("a submission's file through an app on the S3 store", () => {
  let s3: S3Peer;
  let app: RunningApp;
  beforeAll(async () => {
    s3 = await startS3();
    app = await startApp({ port: await freePort(), quiet: true, env: { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!, ...s3.env } });
  });
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  it("is in the bucket when the answer comes, and downloads back byte for byte", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const csv = demoPredictionsCsv({ skill: 0.8, seed: "s3" });
    const answer = await postCsv(app.url, slug, csv, auth);
    expect(answer.status).toBe(201);
    const { id } = (await answer.json()) as { id: string };
    const client = new S3Client({ region: "us-east-1", endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "submissions/" }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual([expect.stringMatching(new RegExp(`^submissions/[0-9a-f-]{36}/${id}$`))]);
    const file = await fetch(`${app.url}/api/v1/competitions/${slug}/submissions/${id}/file`, { headers: auth });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-length")).toBe(String(Buffer.byteLength(csv)));
    expect(await file.text()).toBe(csv);
  });
});
