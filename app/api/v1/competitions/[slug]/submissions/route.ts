// POST /api/v1/competitions/[slug]/submissions – submit predictions (text/csv body or multipart "file");
//   ?sandbox=true (organizers): test a file against the key, exact scores, nothing spent or ranked
// GET /api/v1/competitions/[slug]/submissions – the caller's team's submissions
import { z } from "zod";
import { mySubmissionSchema, sandboxTestSchema, submissionResultSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";
import { testInSandbox } from "@/lib/server/scoring/sandbox";
import { submit } from "@/lib/server/scoring/submit";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { MAX_SUBMISSION_BYTES } from "@/lib/server/scoring/upload";
import { noteSchema } from "@/lib/validation/files";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/submissions",
    tag: "Teams and submissions",
    summary: "Submit predictions (id,prediction); with ?sandbox=true, organizers test a file against the key",
    who: "team members (sandbox: organizers)",
    auth: "required",
    query: z.object({ filename: z.string().optional(), description: noteSchema.shape.description.optional(), sandbox: z.enum(["true"]).optional() }),
    headers: { "Idempotency-Key": "a key of the team's in this competition (1 to 200 characters): the same file again returns the first result, another file is a 409" },
    body: "csv-or-multipart",
    ok: {
      201: { description: "the answer (a sandbox test: its exact scores)", reply: submissionResultSchema, alternatives: [sandboxTestSchema] },
      200: { description: "the first answer to this Idempotency-Key", reply: submissionResultSchema },
    },
    errors: [403, 409, 429],
  },
  async ({ request, user, params, query }) => {
    // Nothing of the body is read until the service has authorized the upload (platform/uploads.ts).
    const { file, details } = openUpload(request, { maxBytes: MAX_SUBMISSION_BYTES, what: "the submission", userId: user.id });
    if (query.sandbox === "true") return json(await testInSandbox(user, params.slug, file, details), 201);
    const { result, replayed } = await submit(user, params.slug, file, { idempotencyKey: request.headers.get("idempotency-key"), details });
    const response = json(result, replayed ? 200 : 201);
    if (replayed) response.headers.set("idempotent-replayed", "true");
    return response;
  },
);

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/submissions",
    tag: "Teams and submissions",
    summary: "The caller's team's submissions and its final selection",
    who: "team members",
    auth: "required",
    ok: { 200: { description: "the submissions", reply: z.object({ submissions: z.array(mySubmissionSchema), final: z.array(z.uuid()) }) } },
    errors: [403],
  },
  async ({ user, params }) => {
    const { submissions, finalIds } = await listMySubmissions(user, params.slug);
    return json({ submissions, final: finalIds });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST, GET });
