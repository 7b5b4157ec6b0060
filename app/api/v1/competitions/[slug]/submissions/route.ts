// POST /api/v1/competitions/[slug]/submissions – submit predictions (text/csv body or multipart "file");
//   ?sandbox=true (organizers): test a file against the key, exact scores, nothing spent or ranked
// GET /api/v1/competitions/[slug]/submissions – the caller's team's submissions
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { testInSandbox } from "@/lib/server/scoring/sandbox";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { MAX_SUBMISSION_BYTES } from "@/lib/server/scoring/upload";
import { submit } from "@/lib/server/scoring/submit";

type Context = { params: Promise<{ slug: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { slug } = await params;
  // Nothing of the body is read until the service has authorized the upload (platform/uploads.ts).
  const { file, details } = openUpload(request, { maxBytes: MAX_SUBMISSION_BYTES, what: "the submission", userId: user.id });
  if (new URL(request.url).searchParams.get("sandbox") === "true") return json(await testInSandbox(user, slug, file, details), 201);
  const { result, replayed } = await submit(user, slug, file, { idempotencyKey: request.headers.get("idempotency-key"), details });
  const response = json(result, replayed ? 200 : 201);
  if (replayed) response.headers.set("idempotent-replayed", "true");
  return response;
});

export const GET = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { submissions, finalIds } = await listMySubmissions(user, (await params).slug);
  return json({ submissions, final: finalIds });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST, GET });
