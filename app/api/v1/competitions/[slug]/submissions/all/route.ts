// GET /api/v1/competitions/[slug]/submissions/all – every submission with raw scores (organizers; ?format=csv, ?team=ID for one team)
import { z } from "zod";
import { consoleRowSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { consoleCsv, listAllSubmissions } from "@/lib/server/console/console";
import { json, otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/submissions/all",
    tag: "Teams and submissions",
    summary: "Every submission with raw scores (?format=csv, ?team=ID)",
    who: "organizers",
    auth: "required",
    query: z.object({ format: z.enum(["json", "csv"]).optional(), team: z.uuid().optional() }),
    ok: {
      200: {
        description: "the submissions, newest first",
        reply: z.object({ displayPrecision: z.number().int(), submissions: z.array(consoleRowSchema) }),
        alternatives: [{ csv: "the same rows as CSV" }],
      },
    },
    errors: [403],
  },
  async ({ user, params, query }) => {
    const result = await listAllSubmissions(user, params.slug, { teamId: query.team });
    if (query.format === "csv") {
      return fileResponse(consoleCsv(result.submissions), { filename: `${params.slug}-submissions.csv`, contentType: "text/csv; charset=utf-8", cache: "private, no-store" });
    }
    return json({ displayPrecision: result.displayPrecision, submissions: result.submissions });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
