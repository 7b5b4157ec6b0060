// Every endpoint of the REST API, from the route files that serve them: each route file's handlers
// carry their definitions (lib/server/accounts/endpoint.ts defineRoute), and the OpenAPI document
// (lib/openapi.ts, served at GET /api/v1/openapi.json) is built from them. test/unit/openapi.test.ts
// holds ROUTE_FILES to the route files under app/api: a new route file must be listed here.
import { z } from "zod";
import { buildOpenApiDocument, type Endpoint } from "@/lib/openapi";
import { defineRoute, type RouteHandler } from "@/lib/server/accounts/endpoint";
import {
  announcementViewSchema,
  attachmentPreviewSchema,
  attachmentSchema,
  attachmentUploadSchema,
  attackPreviewSchema,
  auditReportSchema,
  banSchema,
  changeLogEntrySchema,
  competitionDetailsSchema,
  competitionListSchema,
  consoleRowSchema,
  correlationEchoSchema,
  correlationSummarySchema,
  disqualificationSchema,
  doneSchema,
  revealSchema,
  TRANSCRIPT_COLUMNS,
  guaranteeSummarySchema,
  healthReportSchema,
  mechanismPreviewSchema,
  mergeRequestSchema,
  mySubmissionSchema,
  organizersSchema,
  planSchema,
  publishChecklistSchema,
  registrationSchema,
  sandboxTestSchema,
  settingsPreviewSchema,
  solutionUploadedSchema,
  submissionResultSchema,
  teamViewSchema,
  webhookCreatedSchema,
  webhookViewSchema,
} from "@/lib/responses";
import { correlationRequestSchema, mechanismSchema } from "@/lib/validation/calibration";
import {
  announcementSchema,
  baselineSchema,
  createCompetitionSchema,
  invitationSchema,
  inviteOrganizerSchema,
  competitionListQuerySchema,
  publishRequestSchema,
  registrationDecisionSchema,
  updateCompetitionSchema,
  webhookSchema,
  banSchema as banRequestSchema,
} from "@/lib/validation/competitions";
import { startUploadSchema, noteSchema } from "@/lib/validation/files";
import { createTeamSchema, disqualifySchema, finalSelectionSchema, inviteCodeSchema } from "@/lib/validation/teams";
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
  "v1/unsubscribe": unsubscribe,
  "v1/users": users,
  "v1/openapi.json": { GET: openApiJson },
};

/** The endpoints whose route files do not define them yet (the hand-kept list that was lib/openapi.ts OPERATIONS, going away). */
const NOT_YET_DEFINED: Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/competitions",
    tag: "Competitions",
    summary: "Competitions (drafts: their organizers only), open first, then drafts, then closed, each by deadline; filtered by status, title words and mine, a page at a time",
    who: "anyone",
    auth: "optional",
    query: competitionListQuerySchema,
    ok: { 200: { description: "a page of the competitions that match, and how many match", reply: competitionListSchema } },
  },
  {
    method: "POST",
    path: "/api/v1/competitions",
    tag: "Competitions",
    summary: "Create a draft; the caller organizes it",
    who: "signed in",
    auth: "required",
    body: createCompetitionSchema,
    ok: { 201: { description: "the draft", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "A competition's public details, with what its scores are worth",
    who: "anyone",
    auth: "optional",
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema.extend({ guarantee: guaranteeSummarySchema.nullable() }) } },
  },
  {
    method: "PATCH",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "Change settings (after publishing, the live ones); ?preview=true answers what the change would do and stores nothing",
    who: "organizers",
    auth: "required",
    query: z.object({ preview: z.enum(["true"]).optional() }),
    body: updateCompetitionSchema,
    ok: { 200: { description: "the competition, or with preview what would change", reply: competitionDetailsSchema, alternatives: [settingsPreviewSchema] } },
    errors: [403, 409],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "Delete a draft with its solution and data files",
    who: "organizers, drafts",
    auth: "required",
    ok: { 200: { description: "deleted", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/changes",
    tag: "Competitions",
    summary: "Every settings change, newest first",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the change log", reply: z.object({ changes: z.array(changeLogEntrySchema) }) } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/registrations",
    tag: "Competitions",
    summary: "Ask to take part (competitions that admit by approval)",
    who: "signed in",
    auth: "required",
    ok: {
      201: { description: "asked", reply: z.object({ status: z.string() }) },
      200: { description: "asked before: the request's status", reply: z.object({ status: z.string() }) },
    },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/registrations",
    tag: "Competitions",
    summary: "Organizers: every request to take part; others: their own",
    who: "signed in",
    auth: "required",
    ok: {
      200: {
        description: "the requests, or the caller's status",
        reply: z.object({ registrations: z.array(registrationSchema) }),
        alternatives: [z.object({ status: z.string().nullable() })],
      },
    },
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/announcements",
    tag: "Competitions",
    summary: "The competition's announcements, newest first: the organizers' posts and the notices of changed settings, the deadline a day ahead and the close",
    who: "anyone who sees it",
    auth: "optional",
    ok: { 200: { description: "the announcements", reply: z.object({ announcements: z.array(announcementViewSchema) }) } },
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/announcements",
    tag: "Competitions",
    summary: "Post an announcement (Markdown, no raw HTML), mailed once to every participant who did not turn announcements off",
    who: "organizers, once published",
    auth: "required",
    body: announcementSchema,
    ok: { 201: { description: "the announcement", reply: announcementViewSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/webhooks",
    tag: "Competitions",
    summary: "Add a webhook: its events are POSTed to the URL, signed as Standard Webhooks; the answer holds the signing secret, shown this once",
    who: "organizers",
    auth: "required",
    body: webhookSchema,
    ok: { 201: { description: "the webhook with its secret (whsec_…)", reply: webhookCreatedSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/webhooks",
    tag: "Competitions",
    summary: "The competition's webhooks, each with its last 20 deliveries (never a secret)",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the webhooks", reply: z.object({ webhooks: z.array(webhookViewSchema) }) } },
    errors: [403],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/webhooks/{id}",
    tag: "Competitions",
    summary: "Delete a webhook; its events still queued are given up",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "deleted", reply: doneSchema("deleted") } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/webhooks/{id}/test",
    tag: "Competitions",
    summary: "Send the webhook a webhook.test event, through the outbox like any other",
    who: "organizers",
    auth: "required",
    ok: { 202: { description: "queued (and sent, unless the receiver did not take it: then retried)", reply: z.object({ queued: z.literal(true), id: z.uuid() }) } },
    errors: [403],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/registrations/{id}",
    tag: "Competitions",
    summary: "Approve or refuse a request; the applicant gets a mail",
    who: "organizers",
    auth: "required",
    body: registrationDecisionSchema,
    ok: { 200: { description: "the request", reply: registrationSchema } },
    errors: [403],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/solution",
    tag: "Competitions",
    summary: "Upload the solution CSV (id,label,split[,order,group,state])",
    who: "organizers, drafts",
    auth: "required",
    body: "csv",
    ok: { 200: { description: "the rows of each split, the file's hash and warnings", reply: solutionUploadedSchema } },
    errors: [403, 409, 429],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/correlation",
    tag: "Competitions",
    summary: "Set the holdout's correlation model",
    who: "organizers, drafts",
    auth: "required",
    body: correlationRequestSchema,
    ok: {
      200: {
        description: "the model resolved against the solution (the model as given before there is one)",
        reply: correlationSummarySchema,
        alternatives: [correlationEchoSchema],
      },
    },
    errors: [403, 409],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/mechanism",
    tag: "Competitions",
    summary: "Set the mechanism (guarantee or practical mode); a plan whose budget is 0 is refused",
    who: "organizers, drafts",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the plan", reply: planSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/mechanism/preview",
    tag: "Competitions",
    summary: "The plan and the panel's plots for mechanism settings, nothing stored",
    who: "organizers",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the plan and the plots", reply: mechanismPreviewSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attack-preview",
    tag: "Competitions",
    summary: "The boosting attack against mechanism settings, on synthetic labels of the holdout's size and correlation",
    who: "organizers",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the attack's reported accuracy on a plain and a protected board", reply: attackPreviewSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/publish",
    tag: "Competitions",
    summary:
      "What publishing needs, item by item (deadline, solution, correlation, mechanism), each with what is there or what to do, and what the organizer must acknowledge (no guarantee, a model that ignores declared groups or states)",
    who: "organizers, drafts",
    auth: "required",
    ok: { 200: { description: "the checklist", reply: publishChecklistSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/publish",
    tag: "Competitions",
    summary:
      "Publish: fixes σ, T, B₀ and m; a 409 names every unfinished item of the checklist (its details), or, code acknowledgment_required, the acknowledgments GET …/publish lists that the body's `acknowledge` lacks (their codes in details)",
    who: "organizers",
    auth: "required",
    body: publishRequestSchema,
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/close",
    tag: "Competitions",
    summary: "Close early; the final standings are computed and every member is mailed",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/organizers",
    tag: "Competitions",
    summary: "The organizers and the invitations not accepted yet",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "organizers and invitations", reply: organizersSchema } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/organizers",
    tag: "Competitions",
    summary: "Invite an address to co-organize (a mailed link its account accepts)",
    who: "organizers",
    auth: "required",
    body: inviteOrganizerSchema,
    ok: {
      202: {
        description: "invited (the same answer whether or not the address has an account)",
        reply: z.object({ email: z.string(), status: z.literal("invited"), expiresAt: z.iso.datetime() }),
      },
    },
    errors: [403, 409, 429],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/organizers/{userId}",
    tag: "Competitions",
    summary: "Remove a co-organizer (never the last)",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/organizers/invitations/{id}",
    tag: "Competitions",
    summary: "Withdraw an invitation",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "withdrawn", reply: doneSchema("deleted") } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/organizer-invitations/accept",
    tag: "Competitions",
    summary: "Accept an invitation to organize with the token of its link",
    who: "signed in, with the address invited",
    auth: "required",
    body: invitationSchema,
    ok: { 200: { description: "the competition the caller now organizes", reply: z.object({ slug: z.string(), title: z.string() }) } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments",
    tag: "Competitions",
    summary: "The competition's data files",
    who: "anyone who sees the competition",
    auth: "optional",
    ok: { 200: { description: "the files", reply: z.object({ attachments: z.array(attachmentSchema) }) } },
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments",
    tag: "Competitions",
    summary: "Attach a data file (multipart field file)",
    who: "organizers",
    auth: "required",
    body: "multipart",
    ok: { 201: { description: "the file", reply: attachmentSchema } },
    errors: [403, 429],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments/uploads",
    tag: "Competitions",
    summary: "Start a resumable upload of a data file: its name, size and (optionally) SHA-256; the part size to send",
    who: "organizers",
    auth: "required",
    body: startUploadSchema,
    ok: { 201: { description: "the upload: its id, part size and count, and its expiry", reply: attachmentUploadSchema } },
    errors: [403, 413, 429],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}",
    tag: "Competitions",
    summary: "Which parts of a resumable upload arrived (to resume: send the others)",
    who: "the organizer who started it",
    auth: "required",
    ok: { 200: { description: "the upload", reply: attachmentUploadSchema } },
    errors: [403],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}",
    tag: "Competitions",
    summary: "Abandon a resumable upload: its parts are removed",
    who: "the organizer who started it",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}/parts/{n}",
    tag: "Competitions",
    summary: "Send part n (from 1) of a resumable upload: exactly partBytes bytes (the last part the rest); again to replace it",
    who: "the organizer who started it",
    auth: "required",
    body: "bytes",
    ok: { 200: { description: "the part is in the store whole", reply: z.object({ number: z.int(), size: z.int() }) } },
    errors: [403, 408, 409, 413, 429],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}/complete",
    tag: "Competitions",
    summary: "Complete a resumable upload: join its parts, compute the SHA-256 (checked against the one declared) and list the file",
    who: "the organizer who started it",
    auth: "required",
    ok: { 201: { description: "the file, listed", reply: attachmentSchema } },
    errors: [403, 409, 413],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/all",
    tag: "Competitions",
    summary: "Download every data file as one zip (stored entries, ZIP64 past 4 GiB; streamed, with Content-Length)",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    ok: { 200: { description: "the zip, named <slug>-data.zip", reply: { file: "a zip of the data files, each stored as it was uploaded", mediaType: "application/zip" } } },
    errors: [401, 403],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/{id}",
    tag: "Competitions",
    summary: "Download a data file (streamed, with Content-Length; Range, If-Range and If-None-Match against its ETag, the SHA-256)",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    headers: {
      Range: "bytes=a-b, bytes=a- or bytes=-n: only those bytes (206)",
      "If-Range": "the ETag of the file the client has part of: the Range holds only while the file is the same",
      "If-None-Match": "the ETag of the copy the client has: 304 while it is current",
    },
    ok: {
      200: { description: "the file, with ETag and Accept-Ranges", reply: { file: "the file's bytes, with the type it was uploaded with", mediaType: "*/*" } },
      206: { description: "the bytes of the Range asked, with Content-Range", reply: { file: "exactly the bytes asked", mediaType: "*/*" } },
      302: { description: "with the S3 store: Location is a URL signed for 5 minutes that serves the file and its ranges", reply: { nothing: "no body" } },
      304: { description: "If-None-Match named the file's ETag: the client's copy is current", reply: { nothing: "no body" } },
    },
    errors: [401, 403, 416],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/{id}/preview",
    tag: "Competitions",
    summary: "A data file's preview: a CSV file's first 10 rows and per column its type, missing values, distinct count (exact up to 1,000) and range, computed once at upload",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    ok: {
      200: { description: "the file and its preview: kind csv, kind none with the reason, or null for a file uploaded before previews existed", reply: attachmentPreviewSchema },
    },
    errors: [401, 403],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/attachments/{id}",
    tag: "Competitions",
    summary: "Remove a data file",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/health",
    tag: "Competitions",
    summary: "Privacy spent per team and in total",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the holdout's health", reply: healthReportSchema } },
    errors: [403],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/audit",
    tag: "Competitions",
    summary: "Replay every answer from the stored secret",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "answers replayed and mismatches", reply: auditReportSchema } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/reveal",
    tag: "Reveal",
    summary: "Reveal the solution as uploaded, the mechanism's secret and every answer (once closed; the default is to keep them private)",
    who: "organizers, once closed",
    auth: "required",
    ok: { 200: { description: "the competition, with revealedAt", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal",
    tag: "Reveal",
    summary:
      "What a verifier needs: the commitment, the secret and the settings it hashes, the mechanism's parameters, and where the solution and the transcript are (404 before the reveal)",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the reveal", reply: revealSchema } },
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal/solution",
    tag: "Reveal",
    summary: "The solution file, byte for byte as the organizers uploaded it: its SHA-256 is the commitment's `solution`",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the solution file", reply: { csv: "the solution as uploaded: id,label,split and any order, group, state columns" } } },
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal/transcript",
    tag: "Reveal",
    summary: "Every answer in order of stream and query index, with its values, kind, answer and budget",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the transcript", reply: { csv: TRANSCRIPT_COLUMNS.join(",") } } },
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams",
    tag: "Teams and submissions",
    summary: "Create a team, accepting the rules",
    who: "signed in, meeting the access rules",
    auth: "required",
    body: createTeamSchema,
    ok: { 201: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string(), inviteCode: z.string() }) } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/join",
    tag: "Teams and submissions",
    summary: "Join a team with its invite code",
    who: "signed in, meeting the access rules",
    auth: "required",
    body: inviteCodeSchema,
    ok: { 200: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string() }) } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/leave",
    tag: "Teams and submissions",
    summary: "Leave the caller's team (before its first submission)",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "left", reply: doneSchema("left") } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/team",
    tag: "Teams and submissions",
    summary: "The caller's team: members, invite code, budget, limits, merge requests",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "the team", reply: teamViewSchema } },
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge",
    tag: "Teams and submissions",
    summary: "Ask the team with the invite code to merge into the caller's",
    who: "team members",
    auth: "required",
    body: inviteCodeSchema,
    ok: { 201: { description: "the request, pending", reply: mergeRequestSchema.extend({ status: z.literal("pending") }) } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/accept",
    tag: "Teams and submissions",
    summary: "Accept a merge request: the caller's team merges into the team that asked",
    who: "members of the team asked",
    auth: "required",
    ok: { 200: { description: "the merged team", reply: teamViewSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/decline",
    tag: "Teams and submissions",
    summary: "Decline a merge request",
    who: "members of the team asked",
    auth: "required",
    ok: { 200: { description: "declined", reply: z.object({ id: z.uuid(), status: z.literal("declined") }) } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/cancel",
    tag: "Teams and submissions",
    summary: "Cancel the caller's team's merge request",
    who: "members of the team that asked",
    auth: "required",
    ok: { 200: { description: "cancelled", reply: z.object({ id: z.uuid(), status: z.literal("cancelled") }) } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/submissions",
    tag: "Teams and submissions",
    summary: "Submit predictions (id,prediction); with ?sandbox=true, organizers test a file against the key",
    who: "team members (sandbox: organizers)",
    auth: "required",
    query: z.object({ filename: z.string().optional(), description: noteSchema.shape.description.optional(), sandbox: z.enum(["true"]).optional() }),
    headers: { "Idempotency-Key": "a key of the team's in this competition (1 to 200 characters): the same file again returns the first result, another file is a 409" },
    body: "csv-or-multipart",
    ok: {
      201: { description: "the answer (a sandbox test: its exact scores)", reply: submissionResultSchema, alternatives: [sandboxTestSchema] },
      200: { description: "the first answer to this Idempotency-Key", reply: submissionResultSchema },
    },
    errors: [403, 409, 429],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/submissions",
    tag: "Teams and submissions",
    summary: "The caller's team's submissions and its final selection",
    who: "team members",
    auth: "required",
    ok: { 200: { description: "the submissions", reply: z.object({ submissions: z.array(mySubmissionSchema), final: z.array(z.uuid()) }) } },
    errors: [403],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/submissions/{id}/final",
    tag: "Teams and submissions",
    summary: "Select a submission for the final standings (up to 2), or unselect it",
    who: "team members",
    auth: "required",
    body: finalSelectionSchema,
    ok: { 200: { description: "the selection", reply: z.object({ id: z.uuid(), selected: z.boolean() }) } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/submissions/{id}/file",
    tag: "Teams and submissions",
    summary: "The uploaded file, byte for byte (streamed, with its original Content-Length)",
    who: "the team's members, organizers",
    auth: "required",
    ok: { 200: { description: "the file", reply: { csv: "the file as it was uploaded" } } },
  },
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
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/sandbox",
    tag: "Teams and submissions",
    summary: "Every sandbox test with its exact scores",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the tests", reply: z.object({ tests: z.array(sandboxTestSchema) }) } },
    errors: [403],
  },
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/sandbox/{id}/baseline",
    tag: "Teams and submissions",
    summary: "Show a sandbox test on the leaderboard as an unranked baseline with its public score",
    who: "organizers",
    auth: "required",
    body: baselineSchema,
    ok: { 200: { description: "the test", reply: sandboxTestSchema } },
    errors: [403, 409],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/sandbox/{id}/baseline",
    tag: "Teams and submissions",
    summary: "Hide a baseline",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the test", reply: sandboxTestSchema } },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/{teamId}/disqualify",
    tag: "Teams and submissions",
    summary: "Disqualify a team: off the live and final boards, no more submissions, no budget restored",
    who: "organizers",
    auth: "required",
    body: disqualifySchema,
    ok: { 200: { description: "the team", reply: disqualificationSchema } },
    errors: [403, 409],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/teams/{teamId}/disqualify",
    tag: "Teams and submissions",
    summary: "Reinstate a disqualified team",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the team", reply: disqualificationSchema } },
    errors: [403, 409],
  },
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/bans",
    tag: "Teams and submissions",
    summary: "Ban a user who takes part from the competition",
    who: "organizers",
    auth: "required",
    body: banRequestSchema,
    ok: { 201: { description: "the ban", reply: banSchema } },
    errors: [403, 409],
  },
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/bans",
    tag: "Teams and submissions",
    summary: "The users banned from the competition",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the bans", reply: z.object({ bans: z.array(banSchema) }) } },
    errors: [403],
  },
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/bans/{userId}",
    tag: "Teams and submissions",
    summary: "Lift a ban",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "lifted", reply: doneSchema("deleted") } },
    errors: [403],
  },
];

/** The endpoints: every handler of the route files, by its definition. */
export const ENDPOINTS: Endpoint[] = [
  ...Object.values(ROUTE_FILES).flatMap((exports) =>
    Object.values(exports).flatMap((value) => (typeof value === "function" && "endpoint" in value ? [(value as RouteHandler).endpoint] : [])),
  ),
  ...NOT_YET_DEFINED,
];

let built: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of the API (docs/api.md), built once. */
export function openApiDocument(): Record<string, unknown> {
  return (built ??= buildOpenApiDocument(ENDPOINTS));
}
