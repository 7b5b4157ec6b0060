// Every endpoint of the REST API, from the route files that serve them: each route file's handlers
// carry their definitions (lib/server/accounts/endpoint.ts defineRoute), and the OpenAPI document
// (lib/openapi.ts, served at GET /api/v1/openapi.json) is built from them. test/unit/openapi.test.ts
// holds ROUTE_FILES to the route files under app/api: a new route file must be listed here.
import { z } from "zod";
import { buildOpenApiDocument, type Endpoint } from "@/lib/openapi";
import { defineRoute, type RouteHandler } from "@/lib/server/accounts/endpoint";
import * as health from "./health/route";
import * as metrics from "./metrics/route";
import * as calibrate from "./v1/calibrate/route";
import * as competitions from "./v1/competitions/route";
import * as competition from "./v1/competitions/[slug]/route";
import * as competitionAnnouncements from "./v1/competitions/[slug]/announcements/route";
import * as competitionAttachments from "./v1/competitions/[slug]/attachments/route";
import * as competitionAttachmentsById from "./v1/competitions/[slug]/attachments/[id]/route";
import * as competitionAttachmentsByIdPreview from "./v1/competitions/[slug]/attachments/[id]/preview/route";
import * as competitionAttachmentsAll from "./v1/competitions/[slug]/attachments/all/route";
import * as competitionAttachmentsUploads from "./v1/competitions/[slug]/attachments/uploads/route";
import * as competitionAttachmentsUploadsById from "./v1/competitions/[slug]/attachments/uploads/[id]/route";
import * as competitionAttachmentsUploadsByIdComplete from "./v1/competitions/[slug]/attachments/uploads/[id]/complete/route";
import * as competitionAttachmentsUploadsByIdPartsByN from "./v1/competitions/[slug]/attachments/uploads/[id]/parts/[n]/route";
import * as competitionAttackPreview from "./v1/competitions/[slug]/attack-preview/route";
import * as competitionAudit from "./v1/competitions/[slug]/audit/route";
import * as competitionBans from "./v1/competitions/[slug]/bans/route";
import * as competitionBansByUserId from "./v1/competitions/[slug]/bans/[userId]/route";
import * as competitionChanges from "./v1/competitions/[slug]/changes/route";
import * as competitionClose from "./v1/competitions/[slug]/close/route";
import * as competitionCorrelation from "./v1/competitions/[slug]/correlation/route";
import * as competitionFinal from "./v1/competitions/[slug]/final/route";
import * as competitionHealth from "./v1/competitions/[slug]/health/route";
import * as competitionLeaderboard from "./v1/competitions/[slug]/leaderboard/route";
import * as competitionLeaderboardLate from "./v1/competitions/[slug]/leaderboard/late/route";
import * as competitionMechanism from "./v1/competitions/[slug]/mechanism/route";
import * as competitionMechanismPreview from "./v1/competitions/[slug]/mechanism/preview/route";
import * as competitionOrganizers from "./v1/competitions/[slug]/organizers/route";
import * as competitionOrganizersByUserId from "./v1/competitions/[slug]/organizers/[userId]/route";
import * as competitionOrganizersInvitationsById from "./v1/competitions/[slug]/organizers/invitations/[id]/route";
import * as competitionPublish from "./v1/competitions/[slug]/publish/route";
import * as competitionRegistrations from "./v1/competitions/[slug]/registrations/route";
import * as competitionRegistrationsById from "./v1/competitions/[slug]/registrations/[id]/route";
import * as competitionReveal from "./v1/competitions/[slug]/reveal/route";
import * as competitionRevealSolution from "./v1/competitions/[slug]/reveal/solution/route";
import * as competitionRevealTranscript from "./v1/competitions/[slug]/reveal/transcript/route";
import * as competitionSandbox from "./v1/competitions/[slug]/sandbox/route";
import * as competitionSandboxByIdBaseline from "./v1/competitions/[slug]/sandbox/[id]/baseline/route";
import * as competitionSolution from "./v1/competitions/[slug]/solution/route";
import * as competitionSubmissions from "./v1/competitions/[slug]/submissions/route";
import * as competitionSubmissionsByIdFile from "./v1/competitions/[slug]/submissions/[id]/file/route";
import * as competitionSubmissionsByIdFinal from "./v1/competitions/[slug]/submissions/[id]/final/route";
import * as competitionSubmissionsAll from "./v1/competitions/[slug]/submissions/all/route";
import * as competitionTeam from "./v1/competitions/[slug]/team/route";
import * as competitionTeams from "./v1/competitions/[slug]/teams/route";
import * as competitionTeamsByTeamId from "./v1/competitions/[slug]/teams/[teamId]/route";
import * as competitionTeamsByTeamIdDisqualify from "./v1/competitions/[slug]/teams/[teamId]/disqualify/route";
import * as competitionTeamsJoin from "./v1/competitions/[slug]/teams/join/route";
import * as competitionTeamsLeave from "./v1/competitions/[slug]/teams/leave/route";
import * as competitionTeamsMerge from "./v1/competitions/[slug]/teams/merge/route";
import * as competitionTeamsMergeRequestsByIdAccept from "./v1/competitions/[slug]/teams/merge-requests/[id]/accept/route";
import * as competitionTeamsMergeRequestsByIdCancel from "./v1/competitions/[slug]/teams/merge-requests/[id]/cancel/route";
import * as competitionTeamsMergeRequestsByIdDecline from "./v1/competitions/[slug]/teams/merge-requests/[id]/decline/route";
import * as competitionWebhooks from "./v1/competitions/[slug]/webhooks/route";
import * as competitionWebhooksById from "./v1/competitions/[slug]/webhooks/[id]/route";
import * as competitionWebhooksByIdTest from "./v1/competitions/[slug]/webhooks/[id]/test/route";
import * as emailVerification from "./v1/email-verification/route";
import * as me from "./v1/me/route";
import * as meEmail from "./v1/me/email/route";
import * as meNotifications from "./v1/me/notifications/route";
import * as mePassword from "./v1/me/password/route";
import * as meVerification from "./v1/me/verification/route";
import * as organizerInvitationsAccept from "./v1/organizer-invitations/accept/route";
import * as passwordReset from "./v1/password-reset/route";
import * as passwordResetConfirm from "./v1/password-reset/confirm/route";
import * as tokens from "./v1/tokens/route";
import * as tokensById from "./v1/tokens/[id]/route";
import * as unsubscribe from "./v1/unsubscribe/route";
import * as users from "./v1/users/route";

/**
 * GET /api/v1/openapi.json, defined here rather than in its route file (which exports it): its
 * handler needs every other endpoint, and the route files are imported here.
 */
export const openApiJson = defineRoute(
  {
    method: "GET",
    path: "/api/v1/openapi.json",
    tag: "Viewing",
    summary: "This document",
    who: "anyone",
    auth: "none",
    ok: { 200: { description: "the OpenAPI 3.1 document of the API", reply: z.object({ openapi: z.string() }).passthrough() } },
  },
  async () => Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
);

/** The route files under app/api (their folders), with what each exports; next-auth's and the catch-all 404 are not endpoints of the document. */
export const ROUTE_FILES: Record<string, Record<string, unknown>> = {
  health: health,
  metrics: metrics,
  "v1/calibrate": calibrate,
  "v1/competitions": competitions,
  "v1/competitions/[slug]": competition,
  "v1/competitions/[slug]/announcements": competitionAnnouncements,
  "v1/competitions/[slug]/attachments": competitionAttachments,
  "v1/competitions/[slug]/attachments/[id]": competitionAttachmentsById,
  "v1/competitions/[slug]/attachments/[id]/preview": competitionAttachmentsByIdPreview,
  "v1/competitions/[slug]/attachments/all": competitionAttachmentsAll,
  "v1/competitions/[slug]/attachments/uploads": competitionAttachmentsUploads,
  "v1/competitions/[slug]/attachments/uploads/[id]": competitionAttachmentsUploadsById,
  "v1/competitions/[slug]/attachments/uploads/[id]/complete": competitionAttachmentsUploadsByIdComplete,
  "v1/competitions/[slug]/attachments/uploads/[id]/parts/[n]": competitionAttachmentsUploadsByIdPartsByN,
  "v1/competitions/[slug]/attack-preview": competitionAttackPreview,
  "v1/competitions/[slug]/audit": competitionAudit,
  "v1/competitions/[slug]/bans": competitionBans,
  "v1/competitions/[slug]/bans/[userId]": competitionBansByUserId,
  "v1/competitions/[slug]/changes": competitionChanges,
  "v1/competitions/[slug]/close": competitionClose,
  "v1/competitions/[slug]/correlation": competitionCorrelation,
  "v1/competitions/[slug]/final": competitionFinal,
  "v1/competitions/[slug]/health": competitionHealth,
  "v1/competitions/[slug]/leaderboard": competitionLeaderboard,
  "v1/competitions/[slug]/leaderboard/late": competitionLeaderboardLate,
  "v1/competitions/[slug]/mechanism": competitionMechanism,
  "v1/competitions/[slug]/mechanism/preview": competitionMechanismPreview,
  "v1/competitions/[slug]/organizers": competitionOrganizers,
  "v1/competitions/[slug]/organizers/[userId]": competitionOrganizersByUserId,
  "v1/competitions/[slug]/organizers/invitations/[id]": competitionOrganizersInvitationsById,
  "v1/competitions/[slug]/publish": competitionPublish,
  "v1/competitions/[slug]/registrations": competitionRegistrations,
  "v1/competitions/[slug]/registrations/[id]": competitionRegistrationsById,
  "v1/competitions/[slug]/reveal": competitionReveal,
  "v1/competitions/[slug]/reveal/solution": competitionRevealSolution,
  "v1/competitions/[slug]/reveal/transcript": competitionRevealTranscript,
  "v1/competitions/[slug]/sandbox": competitionSandbox,
  "v1/competitions/[slug]/sandbox/[id]/baseline": competitionSandboxByIdBaseline,
  "v1/competitions/[slug]/solution": competitionSolution,
  "v1/competitions/[slug]/submissions": competitionSubmissions,
  "v1/competitions/[slug]/submissions/[id]/file": competitionSubmissionsByIdFile,
  "v1/competitions/[slug]/submissions/[id]/final": competitionSubmissionsByIdFinal,
  "v1/competitions/[slug]/submissions/all": competitionSubmissionsAll,
  "v1/competitions/[slug]/team": competitionTeam,
  "v1/competitions/[slug]/teams": competitionTeams,
  "v1/competitions/[slug]/teams/[teamId]": competitionTeamsByTeamId,
  "v1/competitions/[slug]/teams/[teamId]/disqualify": competitionTeamsByTeamIdDisqualify,
  "v1/competitions/[slug]/teams/join": competitionTeamsJoin,
  "v1/competitions/[slug]/teams/leave": competitionTeamsLeave,
  "v1/competitions/[slug]/teams/merge": competitionTeamsMerge,
  "v1/competitions/[slug]/teams/merge-requests/[id]/accept": competitionTeamsMergeRequestsByIdAccept,
  "v1/competitions/[slug]/teams/merge-requests/[id]/cancel": competitionTeamsMergeRequestsByIdCancel,
  "v1/competitions/[slug]/teams/merge-requests/[id]/decline": competitionTeamsMergeRequestsByIdDecline,
  "v1/competitions/[slug]/webhooks": competitionWebhooks,
  "v1/competitions/[slug]/webhooks/[id]": competitionWebhooksById,
  "v1/competitions/[slug]/webhooks/[id]/test": competitionWebhooksByIdTest,
  "v1/email-verification": emailVerification,
  "v1/me": me,
  "v1/me/email": meEmail,
  "v1/me/notifications": meNotifications,
  "v1/me/password": mePassword,
  "v1/me/verification": meVerification,
  "v1/organizer-invitations/accept": organizerInvitationsAccept,
  "v1/password-reset": passwordReset,
  "v1/password-reset/confirm": passwordResetConfirm,
  "v1/tokens": tokens,
  "v1/tokens/[id]": tokensById,
  "v1/unsubscribe": unsubscribe,
  "v1/users": users,
  "v1/openapi.json": { GET: openApiJson },
};

/** The endpoints: every handler of the route files, by its definition. */
export const ENDPOINTS: Endpoint[] = Object.values(ROUTE_FILES).flatMap((exports) =>
  Object.values(exports).flatMap((value) => (typeof value === "function" && "endpoint" in value ? [(value as RouteHandler).endpoint] : [])),
);

let built: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of the API (docs/api.md), built once. */
export function openApiDocument(): Record<string, unknown> {
  return (built ??= buildOpenApiDocument(ENDPOINTS));
}
