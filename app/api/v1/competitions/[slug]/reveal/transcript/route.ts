// GET /api/v1/competitions/[slug]/reveal/transcript – every answer, as CSV, once revealed
import { TRANSCRIPT_COLUMNS } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { revealedTranscript } from "@/lib/server/closing/reveal";
import { otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal/transcript",
    tag: "Reveal",
    summary: "Every answer in order of stream and query index, with its values, kind, answer and budget",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the transcript", reply: { csv: TRANSCRIPT_COLUMNS.join(",") } } },
  },
  async ({ user, params }) =>
    fileResponse(await revealedTranscript(user, params.slug), { filename: `${params.slug}-transcript.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
