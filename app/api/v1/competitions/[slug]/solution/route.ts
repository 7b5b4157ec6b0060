// PUT /api/v1/competitions/[slug]/solution – upload the solution CSV (organizers, drafts only)
import { handleApi, json, limitedBody, otherMethods, requireMediaType } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { MAX_SOLUTION_BYTES, uploadSolution } from "@/lib/server/competitions/solutions";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  requireMediaType(request, ["csv"]);
  const summary = await uploadSolution(user, (await params).slug, limitedBody(request, MAX_SOLUTION_BYTES, "the solution file"));
  return json({ rows: summary.rows, public: summary.public, holdout: summary.holdout, sha256: summary.sha256, warnings: summary.warnings });
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
