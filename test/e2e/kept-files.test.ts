import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { appOnS3, newCompetitor, postCsv, publishedCompetition } from "./helpers";

// A submission's file through an app on the S3 store, as a competitor meets it: the answer comes
// once the file is in the bucket, and the file downloads back byte for byte (unpacked from its
// compressed copy).

describe("a submission's file through an app on the S3 store", () => {
  const on = appOnS3();

  it("is in the bucket when the answer comes, and downloads back byte for byte", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const csv = demoPredictionsCsv({ skill: 0.8, seed: "s3" });
    const answer = await postCsv(on.app.url, slug, csv, auth);
    expect(answer.status).toBe(201);
    const { id } = (await answer.json()) as { id: string };
    expect(await on.s3.keys("submissions/")).toEqual([expect.stringMatching(new RegExp(`^submissions/[0-9a-f-]{36}/${id}$`))]);
    const file = await fetch(`${on.app.url}/api/v1/competitions/${slug}/submissions/${id}/file`, { headers: auth });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-length")).toBe(String(Buffer.byteLength(csv)));
    expect(await file.text()).toBe(csv);
  });
});
