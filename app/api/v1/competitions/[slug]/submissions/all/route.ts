// GET /api/v1/competitions/[slug]/submissions/all – every submission with raw scores (organizers; ?format=csv, ?team=ID for one team)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { consoleCsv, listAllSubmissions } from "@/lib/server/boards/console";
import { fileResponse } from "../../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  const query = new URL(request.url).searchParams;
  const result = await listAllSubmissions(await requireApiUser(request), slug, { teamId: query.get("team") ?? undefined });
  if (query.get("format") === "csv") {
    return fileResponse(consoleCsv(result.submissions), { filename: `${slug}-submissions.csv`, contentType: "text/csv; charset=utf-8", cache: "private, no-store" });
  }
  return json({ displayPrecision: result.displayPrecision, submissions: result.submissions });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
