// GET /api/v1/competitions/[slug]/final – final standings once closed, with bounds, ties and the shake-up (?format=csv: as CSV)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { finalStandingsCsv, getFinalStandings } from "@/lib/server/boards/finals";
import { fileResponse } from "../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  const viewer = await findApiUser(request);
  if (new URL(request.url).searchParams.get("format") === "csv") {
    return fileResponse(await finalStandingsCsv(viewer, slug), { filename: `${slug}-final.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
  }
  return json(await getFinalStandings(viewer, slug));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
