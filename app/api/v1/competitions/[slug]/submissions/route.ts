// POST /api/v1/competitions/[slug]/submissions – submit predictions (text/csv body or multipart "file")
// GET /api/v1/competitions/[slug]/submissions – the caller's team's submissions
import { handleApi, json } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { AppError } from "@/lib/server/errors";
import { listMySubmissions, MAX_SUBMISSION_BYTES, submit } from "@/lib/server/submissions";

type Context = { params: Promise<{ slug: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_SUBMISSION_BYTES + 64 * 1024) {
    throw new AppError("payload_too_large", `the submission is larger than ${MAX_SUBMISSION_BYTES / 1024 / 1024} MiB`);
  }
  let body = request.body;
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const file = (await request.formData().catch(() => null))?.get("file");
    if (!(file instanceof File)) throw new AppError("unprocessable_entity", 'send the predictions as the multipart field "file"');
    body = file.stream();
  }
  const { result, replayed } = await submit(user, (await params).slug, body, request.headers.get("idempotency-key"));
  const response = json(result, replayed ? 200 : 201);
  if (replayed) response.headers.set("idempotent-replayed", "true");
  return response;
});

export const GET = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { submissions, finalIds } = await listMySubmissions(user, (await params).slug);
  return json({ submissions, final: finalIds });
});
