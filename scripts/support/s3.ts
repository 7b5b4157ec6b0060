import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
// s3rver: an S3 protocol peer in Node (koa over a directory), no binaries; its default credentials are S3RVER/S3RVER.
import S3rver from "s3rver";

export type S3Peer = {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  /** the keys of the objects in the bucket whose key starts with `prefix` */
  keys: (prefix?: string) => Promise<string[]>;
  stop: () => Promise<void>;
};

/**
 * A real S3 server (s3rver) on 127.0.0.1 with one bucket, its objects in a temporary directory (made
 * in `parent`: the files bench keeps everything it writes in one directory), and the app's variables
 * that point at it.
 */
export async function startS3(bucket = "quiltboard-test", parent = tmpdir()): Promise<S3Peer> {
  const directory = mkdtempSync(path.join(parent, "quiltboard-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      QUILTBOARD_FILES: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
    },
    keys: async (prefix = "") => {
      const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      client.destroy();
      return (listed.Contents ?? []).map((o) => o.Key!);
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
