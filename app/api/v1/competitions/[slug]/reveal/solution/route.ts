// GET /api/v1/competitions/[slug]/reveal/solution – the solution file as uploaded, once revealed
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { revealedSolution } from "@/lib/server/closing/reveal";
import { otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal/solution",
    tag: "Reveal",
    summary: "The solution file, byte for byte as the organizers uploaded it: its SHA-256 is the commitment's `solution`",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the solution file", reply: { csv: "the solution as uploaded: id,label,split and any order, group, state columns" } } },
  },
  async ({ user, params }) => {
    const { size, body } = await revealedSolution(user, params.slug);
    return fileResponse({ stream: body, size }, { filename: `${params.slug}-solution.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
