// GET /api/v1/competitions/[slug]/reveal/solution – the solution file as uploaded, once revealed
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { revealedSolution } from "@/lib/server/boards/reveal";
import { fileResponse } from "../../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  const { size, body } = await revealedSolution(await findApiUser(request), slug);
  return fileResponse({ stream: body, size }, { filename: `${slug}-solution.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
