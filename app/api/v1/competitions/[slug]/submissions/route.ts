// POST /api/v1/competitions/[slug]/submissions – submit predictions (text/csv body or multipart "file");
//   ?sandbox=true (organizers): test a file against the key, exact scores, nothing spent or ranked
// GET /api/v1/competitions/[slug]/submissions – the caller's team's submissions
import { handleApi, json, limitedBody, readMultipartFile } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { testInSandbox } from "@/lib/server/scoring/sandbox";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { MAX_SUBMISSION_BYTES } from "@/lib/server/scoring/upload";
import { submit } from "@/lib/server/scoring/submit";

type Context = { params: Promise<{ slug: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  // A CSV body, with ?description= and ?filename=; or multipart: the field "file" and a field "description".
  const query = new URL(request.url).searchParams;
  let details = { name: query.get("filename"), description: query.get("description") };
  let body: ReadableStream<Uint8Array> | null;
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const { file, form } = await readMultipartFile(request, MAX_SUBMISSION_BYTES + 64 * 1024, "the submission");
    const description = form.get("description");
    details = { name: file.name, description: typeof description === "string" ? description : details.description };
    body = file.stream();
  } else {
    body = limitedBody(request, MAX_SUBMISSION_BYTES, "the submission");
  }
  const { slug } = await params;
  if (query.get("sandbox") === "true") return json(await testInSandbox(user, slug, body, details), 201);
  const { result, replayed } = await submit(user, slug, body, request.headers.get("idempotency-key"), undefined, details);
  const response = json(result, replayed ? 200 : 201);
  if (replayed) response.headers.set("idempotent-replayed", "true");
  return response;
});

export const GET = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { submissions, finalIds } = await listMySubmissions(user, (await params).slug);
  return json({ submissions, final: finalIds });
});
