// PUT /api/v1/competitions/[slug]/solution – upload the solution CSV (organizers, drafts only)
import { handleApi, json, otherMethods, requireMediaType } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { MAX_SOLUTION_BYTES, uploadSolution } from "@/lib/server/competitions/solutions";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  requireMediaType(request, ["csv"]);
  // Nothing of the body is read until the service has checked the caller, then within the caller's upload slots (platform/uploads.ts).
  const { file } = openUpload(request, { maxBytes: MAX_SOLUTION_BYTES, what: "the solution file", userId: user.id });
  const summary = await uploadSolution(user, (await params).slug, file);
  return json({ rows: summary.rows, public: summary.public, holdout: summary.holdout, sha256: summary.sha256, warnings: summary.warnings });
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
