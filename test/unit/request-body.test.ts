import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { limitedBody } from "@/lib/server/platform/api";
import { AppError } from "@/lib/server/platform/errors";

// A request's body as the HTTP preload hands it over (server/http-preload.mjs, 6): Node's request
// stream, kept under the id the header x-quiltboard-body names. limitedBody reads it instead of
// request.body, whose web stream (Next.js's undici Request) copies every chunk.

const BODIES = Symbol.for("quiltboard.requestBodies");
const globals = globalThis as { [key: symbol]: Map<string, AsyncIterable<Uint8Array>> | undefined };

afterEach(() => {
  delete globals[BODIES];
});

function handOver(id: string, chunks: Buffer[]): Map<string, AsyncIterable<Uint8Array>> {
  const bodies = new Map([[id, Readable.from(chunks)]]);
  globals[BODIES] = bodies;
  return bodies;
}

const post = (headers: Record<string, string>, body = "what Next.js would give") => new Request("http://app/upload", { method: "POST", headers, body });

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return chunks;
}

describe("limitedBody with a handed-over body", () => {
  it("reads Node's stream, passing on its very chunks (no copy), and takes it only once", async () => {
    const sent = [Buffer.from("id,value\n"), Buffer.from("1,2\n")];
    const bodies = handOver("b-1", sent);
    const read = await chunksOf(limitedBody(post({ "x-quiltboard-body": "b-1" }), 1024, "the file")!);
    expect(read).toHaveLength(2);
    expect(read[0]).toBe(sent[0]);
    expect(read[1]).toBe(sent[1]);
    expect(bodies.has("b-1")).toBe(false);
  });

  it("counts the handed-over bytes against the limit: 413 past it", async () => {
    handOver("b-2", [Buffer.alloc(600), Buffer.alloc(600)]);
    const failure = await chunksOf(limitedBody(post({ "x-quiltboard-body": "b-2" }), 1000, "the file")!).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).status).toBe(413);
    expect((failure as AppError).message).toBe("the file is larger than 1000 bytes");
  });

  it("reads request.body when no body was handed over under that id (no preload, or an id of no request)", async () => {
    handOver("b-3", [Buffer.from("not this")]);
    const read = await chunksOf(limitedBody(post({ "x-quiltboard-body": "someone-else" }), 1024, "the file")!);
    expect(Buffer.concat(read).toString()).toBe("what Next.js would give");
    delete globals[BODIES];
    const alone = await chunksOf(limitedBody(post({}), 1024, "the file")!);
    expect(Buffer.concat(alone).toString()).toBe("what Next.js would give");
  });
});
