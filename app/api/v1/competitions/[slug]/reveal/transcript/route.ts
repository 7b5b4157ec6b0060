// GET /api/v1/competitions/[slug]/reveal/transcript – every answer, as CSV, once revealed
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { revealedTranscript } from "@/lib/server/boards/reveal";
import { fileResponse } from "../../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  return fileResponse(await revealedTranscript(await findApiUser(request), slug), {
    filename: `${slug}-transcript.csv`,
    contentType: "text/csv; charset=utf-8",
    cache: "no-store",
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
