// PUT /api/v1/competitions/[slug]/solution – upload the solution CSV (organizers, drafts only)
import { solutionUploadedSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { MAX_SOLUTION_BYTES, uploadSolution } from "@/lib/server/competitions/solutions";
import { json, otherMethods, requireMediaType } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/solution",
    tag: "Competitions",
    summary: "Upload the solution CSV (id,label,split[,order,group,state])",
    who: "organizers, drafts",
    auth: "required",
    body: "csv",
    ok: { 200: { description: "the rows of each split, the file's hash and warnings", reply: solutionUploadedSchema } },
    errors: [403, 409, 429],
  },
  async ({ request, user, params }) => {
    requireMediaType(request, ["csv"]);
    // Nothing of the body is read until the service has checked the caller, then within the caller's upload slots (platform/uploads.ts).
    const { file } = openUpload(request, { maxBytes: MAX_SOLUTION_BYTES, what: "the solution file", userId: user.id });
    const summary = await uploadSolution(user, params.slug, file);
    return json({ rows: summary.rows, public: summary.public, holdout: summary.holdout, sha256: summary.sha256, warnings: summary.warnings });
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
