// The REST API as OpenAPI 3.1 (served at GET /api/v1/openapi.json, read by the reference page at
// /api-reference): every endpoint of docs/api.md with who may call it, its parameters and request
// body (the zod schemas of lib/validation, as they parse input), and each answer's status and body
// (the zod schemas of lib/responses.ts, as the server writes them). test/unit/openapi.test.ts holds
// it to docs/api.md and to the app's route files and validates it against OpenAPI 3.1; the
// end-to-end tests hold every answer they receive to it (test/support/contract.ts).
import { z } from "zod";
import {
  announcementViewSchema,
  attachmentPreviewSchema,
  attachmentSchema,
  attachmentUploadSchema,
  attackPreviewSchema,
  auditReportSchema,
  banSchema,
  calibrationAnswerSchema,
  changeLogEntrySchema,
  competitionDetailsSchema,
  competitionListSchema,
  consoleRowSchema,
  correlationEchoSchema,
  correlationSummarySchema,
  disqualificationSchema,
  doneSchema,
  ERROR_CODES,
  errorBodySchema,
  finalStandingsSchema,
  revealSchema,
  TRANSCRIPT_COLUMNS,
  guaranteeSummarySchema,
  healthReportSchema,
  lateBoardSchema,
  leaderboardSchema,
  mechanismPreviewSchema,
  meSchema,
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
  teamHistorySchema,
  teamViewSchema,
  tokenCreatedSchema,
  userSchema,
  webhookCreatedSchema,
  webhookViewSchema,
} from "./responses";
import {
  emailChangeSchema,
  emailVerificationSchema,
  notificationSettingsSchema,
  notificationUpdateSchema,
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  signUpSchema,
  tokenNameSchema,
  unsubscribeSchema,
} from "./validation/accounts";
import { calibrationRequestSchema, correlationRequestSchema, mechanismSchema } from "./validation/calibration";
import { startUploadSchema } from "./validation/files";
import {
  announcementSchema,
  banSchema as banRequestSchema,
  baselineSchema,
  createCompetitionSchema,
  invitationSchema,
  inviteOrganizerSchema,
  leaderboardQuerySchema,
  competitionListQuerySchema,
  publishRequestSchema,
  registrationDecisionSchema,
  updateCompetitionSchema,
  webhookSchema,
} from "./validation/competitions";
import { createTeamSchema, disqualifySchema, finalSelectionSchema, inviteCodeSchema } from "./validation/teams";

type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call an endpoint: anyone (`none`), anyone with the answer depending on who asks
 * (`optional`), a signed-in caller (`required`: a token or the web session), HTTP Basic
 * credentials or the web session (creating a token), or the metrics token.
 */
type Auth = "none" | "optional" | "required" | "basic" | "metrics";

/** What a request sends: a JSON body, a CSV file (as the body, or as the multipart field `file`), or any file as the multipart field `file`. */
type Body = z.ZodType | "csv-or-multipart" | "csv" | "multipart" | "bytes";

/** What an answer holds: a JSON body, a CSV file, another file, plain text, or (null) nothing of note. */
type Reply = z.ZodType | { csv: string } | { file: string; mediaType?: string } | { text: string } | { nothing: string };

export type Operation = {
  summary: string;
  /** who may call it, in docs/api.md's words */
  who: string;
  auth: Auth;
  query?: z.ZodObject;
  headers?: Record<string, string>;
  body?: Body;
  /** the answers that succeed, by status: what they hold */
  ok: Record<number, { description: string; reply: Reply; alternatives?: Reply[] }>;
  /** the error statuses it may answer besides those every endpoint may (503) and those its auth, path and body bring */
  errors?: number[];
};

/** The document's tags: docs/api.md's groups of endpoints, each operation in one. */
const TAGS = {
  Accounts: "Signing up, API tokens, the caller's account, email verification and password resets",
  Competitions: "Creating, configuring, publishing and closing a competition; its organizers, registrations, data files, health and audit",
  Reveal: "A close anyone can verify: the solution, the mechanism's secret and every answer, once the organizers reveal them",
  "Teams and submissions": "Teams, merges, submissions and final selections; the organizers' sandbox, disqualifications and bans",
  Viewing: "The live, late and final leaderboards, team pages, the calibration planner and this document",
  Service: "Health and metrics, outside /api/v1",
} as const;

type Tag = keyof typeof TAGS;
type TaggedOperation = Operation & { tag: Tag };

/** A group of endpoints, each tagged with the group's name. */
function group(tag: Tag, operations: Record<string, Operation>): Record<string, TaggedOperation> {
  return Object.fromEntries(Object.entries(operations).map(([key, operation]) => [key, { ...operation, tag }]));
}

const ERRORS: Record<number, string> = {
  400: "the body is not valid JSON, or the client stopped sending it",
  401: "no valid credentials: none where they are required, or a Bearer token that is invalid or revoked (also where signing in is optional)",
  403: "not allowed (also a write with the web session from another site; for taking part: email_unverified, domain_not_allowed, identity_required, approval_required)",
  404: "no such competition (drafts are not revealed), or no such resource in it",
  408: "the body arrived too slowly",
  409: "the state does not allow it; the message names the rule",
  413: "the body is larger than allowed",
  415: "the body's Content-Type is not one this endpoint reads (the message says which: application/json, text/csv, multipart/form-data or application/octet-stream)",
  416: "the range asked starts past the file's end (Content-Range: bytes */size says its size)",
  422: "invalid input: `details` lists each problem with its field (of the body, the query or the path) or its CSV line",
  429: "too many requests, or no submission left today; Retry-After says when to come back",
  503: "the database is unavailable, the calculation queue is full, or the server reads as many uploads as it can; nothing was changed, Retry-After says when to try again",
};

/** The error codes an answer of `status` carries (lib/responses.ts ERROR_CODES), as the document says them. */
function codesOf(status: number): string {
  const codes = Object.entries(ERROR_CODES)
    .filter(([, s]) => s === status)
    .map(([code]) => `\`${code}\``);
  return codes.length > 1 ? `${codes.slice(0, -1).join(", ")} or ${codes.at(-1)}` : codes[0];
}

const slug = "/api/v1/competitions/{slug}";

const deleted = doneSchema("deleted");
const competitionWithGuarantee = competitionDetailsSchema.extend({ guarantee: guaranteeSummarySchema.nullable() });
const fileQuery = z.object({ filename: z.string().optional(), description: z.string().max(500).optional() });

/** Every endpoint, as "METHOD path" (paths as OpenAPI templates). */
export const OPERATIONS: Record<string, TaggedOperation> = {
  ...group("Accounts", {
    "POST /api/v1/users": {
      summary: "Sign up; a verification mail goes to the address (403 where password sign-up is off)",
      who: "anyone",
      auth: "none",
      body: signUpSchema,
      ok: { 201: { description: "the account", reply: userSchema } },
      errors: [403, 409, 429],
    },
    "POST /api/v1/tokens": {
      summary: "Create a personal API token (shown once, stored hashed)",
      who: "HTTP Basic email:password, or the web session (the account page)",
      auth: "basic",
      body: tokenNameSchema,
      ok: { 201: { description: "the token", reply: tokenCreatedSchema } },
      errors: [403, 429],
    },
    "DELETE /api/v1/tokens/{id}": {
      summary: "Revoke one of the caller's API tokens; a revoked token gets 401",
      who: "signed in",
      auth: "required",
      ok: { 200: { description: "revoked", reply: deleted } },
    },
    "GET /api/v1/me": { summary: "The caller's account", who: "signed in", auth: "required", ok: { 200: { description: "the account", reply: meSchema } } },
    "PUT /api/v1/me/password": {
      summary: "Change the password; every other session is signed out, API tokens stay",
      who: "signed in",
      auth: "required",
      body: passwordChangeSchema,
      ok: { 200: { description: "changed", reply: doneSchema("changed") } },
      errors: [403, 429],
    },
    "PUT /api/v1/me/email": {
      summary: "Change the address; a link goes to the new one",
      who: "signed in",
      auth: "required",
      body: emailChangeSchema,
      ok: { 200: { description: "the account, unverified", reply: meSchema } },
      errors: [403, 409, 429],
    },
    "GET /api/v1/me/notifications": {
      summary: "For each kind of notification mail, whether the caller gets it",
      who: "signed in",
      auth: "required",
      ok: { 200: { description: "the settings", reply: notificationSettingsSchema } },
    },
    "PUT /api/v1/me/notifications": {
      summary: "Switch kinds of notification mail on or off (the kinds not named stay as they are)",
      who: "signed in",
      auth: "required",
      body: notificationUpdateSchema,
      ok: { 200: { description: "the settings", reply: notificationSettingsSchema } },
    },
    "POST /api/v1/me/verification": {
      summary: "Mail the verification link again",
      who: "signed in",
      auth: "required",
      ok: { 202: { description: "sent", reply: doneSchema("sent") } },
      errors: [403, 409, 429],
    },
    "POST /api/v1/email-verification": {
      summary: "Verify an address with the token of its link",
      who: "anyone with the link",
      auth: "none",
      body: emailVerificationSchema,
      ok: { 200: { description: "the address is verified", reply: z.object({ email: z.string(), verified: z.literal(true) }) } },
    },
    "POST /api/v1/unsubscribe": {
      summary: "A notification mail's one-click unsubscribe (RFC 8058): no more mail of that kind",
      who: "anyone with the link",
      auth: "none",
      query: unsubscribeSchema,
      ok: { 200: { description: "unsubscribed", reply: z.object({ kind: unsubscribeSchema.shape.kind, label: z.string(), unsubscribed: z.literal(true) }) } },
    },
    "POST /api/v1/password-reset": {
      summary: "Mail a link to choose a new password (the same answer whatever the address)",
      who: "anyone",
      auth: "none",
      body: passwordResetRequestSchema,
      ok: { 202: { description: "accepted", reply: z.object({ message: z.string() }) } },
      errors: [429],
    },
    "POST /api/v1/password-reset/confirm": {
      summary: "Choose a new password with the token of the link; every session is signed out and every API token revoked",
      who: "anyone with the link",
      auth: "none",
      body: passwordResetConfirmSchema,
      ok: { 200: { description: "reset", reply: doneSchema("reset") } },
    },
  }),
  ...group("Competitions", {
    "GET /api/v1/competitions": {
      summary: "Competitions (drafts: their organizers only), open first, then drafts, then closed, each by deadline; filtered by status, title words and mine, a page at a time",
      who: "anyone",
      auth: "optional",
      query: competitionListQuerySchema,
      ok: { 200: { description: "a page of the competitions that match, and how many match", reply: competitionListSchema } },
    },
    "POST /api/v1/competitions": {
      summary: "Create a draft; the caller organizes it",
      who: "signed in",
      auth: "required",
      body: createCompetitionSchema,
      ok: { 201: { description: "the draft", reply: competitionDetailsSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}`]: {
      summary: "A competition's public details, with what its scores are worth",
      who: "anyone",
      auth: "optional",
      ok: { 200: { description: "the competition", reply: competitionWithGuarantee } },
    },
    [`PATCH ${slug}`]: {
      summary: "Change settings (after publishing, the live ones); ?preview=true answers what the change would do and stores nothing",
      who: "organizers",
      auth: "required",
      query: z.object({ preview: z.enum(["true"]).optional() }),
      body: updateCompetitionSchema,
      ok: { 200: { description: "the competition, or with preview what would change", reply: competitionDetailsSchema, alternatives: [settingsPreviewSchema] } },
      errors: [403, 409],
    },
    [`DELETE ${slug}`]: {
      summary: "Delete a draft with its solution and data files",
      who: "organizers, drafts",
      auth: "required",
      ok: { 200: { description: "deleted", reply: deleted } },
      errors: [403, 409],
    },
    [`GET ${slug}/changes`]: {
      summary: "Every settings change, newest first",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the change log", reply: z.object({ changes: z.array(changeLogEntrySchema) }) } },
      errors: [403],
    },
    [`POST ${slug}/registrations`]: {
      summary: "Ask to take part (competitions that admit by approval)",
      who: "signed in",
      auth: "required",
      ok: {
        201: { description: "asked", reply: z.object({ status: z.string() }) },
        200: { description: "asked before: the request's status", reply: z.object({ status: z.string() }) },
      },
      errors: [403, 409],
    },
    [`GET ${slug}/registrations`]: {
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
    [`GET ${slug}/announcements`]: {
      summary: "The competition's announcements, newest first: the organizers' posts and the notices of changed settings, the deadline a day ahead and the close",
      who: "anyone who sees it",
      auth: "optional",
      ok: { 200: { description: "the announcements", reply: z.object({ announcements: z.array(announcementViewSchema) }) } },
    },
    [`POST ${slug}/announcements`]: {
      summary: "Post an announcement (Markdown, no raw HTML), mailed once to every participant who did not turn announcements off",
      who: "organizers, once published",
      auth: "required",
      body: announcementSchema,
      ok: { 201: { description: "the announcement", reply: announcementViewSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/webhooks`]: {
      summary: "Add a webhook: its events are POSTed to the URL, signed as Standard Webhooks; the answer holds the signing secret, shown this once",
      who: "organizers",
      auth: "required",
      body: webhookSchema,
      ok: { 201: { description: "the webhook with its secret (whsec_…)", reply: webhookCreatedSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}/webhooks`]: {
      summary: "The competition's webhooks, each with its last 20 deliveries (never a secret)",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the webhooks", reply: z.object({ webhooks: z.array(webhookViewSchema) }) } },
      errors: [403],
    },
    [`DELETE ${slug}/webhooks/{id}`]: {
      summary: "Delete a webhook; its events still queued are given up",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "deleted", reply: deleted } },
      errors: [403],
    },
    [`POST ${slug}/webhooks/{id}/test`]: {
      summary: "Send the webhook a webhook.test event, through the outbox like any other",
      who: "organizers",
      auth: "required",
      ok: { 202: { description: "queued (and sent, unless the receiver did not take it: then retried)", reply: z.object({ queued: z.literal(true), id: z.uuid() }) } },
      errors: [403],
    },
    [`PUT ${slug}/registrations/{id}`]: {
      summary: "Approve or refuse a request; the applicant gets a mail",
      who: "organizers",
      auth: "required",
      body: registrationDecisionSchema,
      ok: { 200: { description: "the request", reply: registrationSchema } },
      errors: [403],
    },
    [`PUT ${slug}/solution`]: {
      summary: "Upload the solution CSV (id,label,split[,order,group,state])",
      who: "organizers, drafts",
      auth: "required",
      body: "csv",
      ok: { 200: { description: "the rows of each split, the file's hash and warnings", reply: solutionUploadedSchema } },
      errors: [403, 409, 429],
    },
    [`PUT ${slug}/correlation`]: {
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
    [`PUT ${slug}/mechanism`]: {
      summary: "Set the mechanism (guarantee or practical mode); a plan whose budget is 0 is refused",
      who: "organizers, drafts",
      auth: "required",
      body: mechanismSchema,
      ok: { 200: { description: "the plan", reply: planSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/mechanism/preview`]: {
      summary: "The plan and the panel's plots for mechanism settings, nothing stored",
      who: "organizers",
      auth: "required",
      body: mechanismSchema,
      ok: { 200: { description: "the plan and the plots", reply: mechanismPreviewSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/attack-preview`]: {
      summary: "The boosting attack against mechanism settings, on synthetic labels of the holdout's size and correlation",
      who: "organizers",
      auth: "required",
      body: mechanismSchema,
      ok: { 200: { description: "the attack's reported accuracy on a plain and a protected board", reply: attackPreviewSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}/publish`]: {
      summary:
        "What publishing needs, item by item (deadline, solution, correlation, mechanism), each with what is there or what to do, and what the organizer must acknowledge (no guarantee, a model that ignores declared groups or states)",
      who: "organizers, drafts",
      auth: "required",
      ok: { 200: { description: "the checklist", reply: publishChecklistSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/publish`]: {
      summary:
        "Publish: fixes σ, T, B₀ and m; a 409 names every unfinished item of the checklist (its details), or, code acknowledgment_required, the acknowledgments GET …/publish lists that the body's `acknowledge` lacks (their codes in details)",
      who: "organizers",
      auth: "required",
      body: publishRequestSchema,
      ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/close`]: {
      summary: "Close early; the final standings are computed and every member is mailed",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}/organizers`]: {
      summary: "The organizers and the invitations not accepted yet",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "organizers and invitations", reply: organizersSchema } },
      errors: [403],
    },
    [`POST ${slug}/organizers`]: {
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
    [`DELETE ${slug}/organizers/{userId}`]: {
      summary: "Remove a co-organizer (never the last)",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "removed", reply: deleted } },
      errors: [403, 409],
    },
    [`DELETE ${slug}/organizers/invitations/{id}`]: {
      summary: "Withdraw an invitation",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "withdrawn", reply: deleted } },
      errors: [403],
    },
    "POST /api/v1/organizer-invitations/accept": {
      summary: "Accept an invitation to organize with the token of its link",
      who: "signed in, with the address invited",
      auth: "required",
      body: invitationSchema,
      ok: { 200: { description: "the competition the caller now organizes", reply: z.object({ slug: z.string(), title: z.string() }) } },
      errors: [403, 409],
    },
    [`GET ${slug}/attachments`]: {
      summary: "The competition's data files",
      who: "anyone who sees the competition",
      auth: "optional",
      ok: { 200: { description: "the files", reply: z.object({ attachments: z.array(attachmentSchema) }) } },
    },
    [`POST ${slug}/attachments`]: {
      summary: "Attach a data file (multipart field file)",
      who: "organizers",
      auth: "required",
      body: "multipart",
      ok: { 201: { description: "the file", reply: attachmentSchema } },
      errors: [403, 429],
    },
    [`POST ${slug}/attachments/uploads`]: {
      summary: "Start a resumable upload of a data file: its name, size and (optionally) SHA-256; the part size to send",
      who: "organizers",
      auth: "required",
      body: startUploadSchema,
      ok: { 201: { description: "the upload: its id, part size and count, and its expiry", reply: attachmentUploadSchema } },
      errors: [403, 413, 429],
    },
    [`GET ${slug}/attachments/uploads/{id}`]: {
      summary: "Which parts of a resumable upload arrived (to resume: send the others)",
      who: "the organizer who started it",
      auth: "required",
      ok: { 200: { description: "the upload", reply: attachmentUploadSchema } },
      errors: [403],
    },
    [`DELETE ${slug}/attachments/uploads/{id}`]: {
      summary: "Abandon a resumable upload: its parts are removed",
      who: "the organizer who started it",
      auth: "required",
      ok: { 200: { description: "removed", reply: deleted } },
      errors: [403, 409],
    },
    [`PUT ${slug}/attachments/uploads/{id}/parts/{n}`]: {
      summary: "Send part n (from 1) of a resumable upload: exactly partBytes bytes (the last part the rest); again to replace it",
      who: "the organizer who started it",
      auth: "required",
      body: "bytes",
      ok: { 200: { description: "the part is in the store whole", reply: z.object({ number: z.int(), size: z.int() }) } },
      errors: [403, 408, 409, 413, 429],
    },
    [`POST ${slug}/attachments/uploads/{id}/complete`]: {
      summary: "Complete a resumable upload: join its parts, compute the SHA-256 (checked against the one declared) and list the file",
      who: "the organizer who started it",
      auth: "required",
      ok: { 201: { description: "the file, listed", reply: attachmentSchema } },
      errors: [403, 409, 413],
    },
    [`GET ${slug}/attachments/all`]: {
      summary: "Download every data file as one zip (stored entries, ZIP64 past 4 GiB; streamed, with Content-Length)",
      who: "team members meeting the access rules, organizers",
      auth: "optional",
      ok: { 200: { description: "the zip, named <slug>-data.zip", reply: { file: "a zip of the data files, each stored as it was uploaded", mediaType: "application/zip" } } },
      errors: [401, 403],
    },
    [`GET ${slug}/attachments/{id}`]: {
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
    [`GET ${slug}/attachments/{id}/preview`]: {
      summary: "A data file's preview: a CSV file's first 10 rows and per column its type, missing values, distinct count (exact up to 1,000) and range, computed once at upload",
      who: "team members meeting the access rules, organizers",
      auth: "optional",
      ok: {
        200: { description: "the file and its preview: kind csv, kind none with the reason, or null for a file uploaded before previews existed", reply: attachmentPreviewSchema },
      },
      errors: [401, 403],
    },
    [`DELETE ${slug}/attachments/{id}`]: {
      summary: "Remove a data file",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "removed", reply: deleted } },
      errors: [403],
    },
    [`GET ${slug}/health`]: {
      summary: "Privacy spent per team and in total",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the holdout's health", reply: healthReportSchema } },
      errors: [403],
    },
    [`GET ${slug}/audit`]: {
      summary: "Replay every answer from the stored secret",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "answers replayed and mismatches", reply: auditReportSchema } },
      errors: [403],
    },
  }),
  ...group("Reveal", {
    [`POST ${slug}/reveal`]: {
      summary: "Reveal the solution as uploaded, the mechanism's secret and every answer (once closed; the default is to keep them private)",
      who: "organizers, once closed",
      auth: "required",
      ok: { 200: { description: "the competition, with revealedAt", reply: competitionDetailsSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}/reveal`]: {
      summary:
        "What a verifier needs: the commitment, the secret and the settings it hashes, the mechanism's parameters, and where the solution and the transcript are (404 before the reveal)",
      who: "anyone, once revealed",
      auth: "optional",
      ok: { 200: { description: "the reveal", reply: revealSchema } },
    },
    [`GET ${slug}/reveal/solution`]: {
      summary: "The solution file, byte for byte as the organizers uploaded it: its SHA-256 is the commitment's `solution`",
      who: "anyone, once revealed",
      auth: "optional",
      ok: { 200: { description: "the solution file", reply: { csv: "the solution as uploaded: id,label,split and any order, group, state columns" } } },
    },
    [`GET ${slug}/reveal/transcript`]: {
      summary: "Every answer in order of stream and query index, with its values, kind, answer and budget",
      who: "anyone, once revealed",
      auth: "optional",
      ok: { 200: { description: "the transcript", reply: { csv: TRANSCRIPT_COLUMNS.join(",") } } },
    },
  }),
  ...group("Teams and submissions", {
    [`POST ${slug}/teams`]: {
      summary: "Create a team, accepting the rules",
      who: "signed in, meeting the access rules",
      auth: "required",
      body: createTeamSchema,
      ok: { 201: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string(), inviteCode: z.string() }) } },
      errors: [403, 409],
    },
    [`POST ${slug}/teams/join`]: {
      summary: "Join a team with its invite code",
      who: "signed in, meeting the access rules",
      auth: "required",
      body: inviteCodeSchema,
      ok: { 200: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string() }) } },
      errors: [403, 409],
    },
    [`POST ${slug}/teams/leave`]: {
      summary: "Leave the caller's team (before its first submission)",
      who: "signed in",
      auth: "required",
      ok: { 200: { description: "left", reply: doneSchema("left") } },
      errors: [403, 409],
    },
    [`GET ${slug}/team`]: {
      summary: "The caller's team: members, invite code, budget, limits, merge requests",
      who: "signed in",
      auth: "required",
      ok: { 200: { description: "the team", reply: teamViewSchema } },
    },
    [`POST ${slug}/teams/merge`]: {
      summary: "Ask the team with the invite code to merge into the caller's",
      who: "team members",
      auth: "required",
      body: inviteCodeSchema,
      ok: { 201: { description: "the request, pending", reply: mergeRequestSchema.extend({ status: z.literal("pending") }) } },
      errors: [403, 409],
    },
    [`POST ${slug}/teams/merge-requests/{id}/accept`]: {
      summary: "Accept a merge request: the caller's team merges into the team that asked",
      who: "members of the team asked",
      auth: "required",
      ok: { 200: { description: "the merged team", reply: teamViewSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/teams/merge-requests/{id}/decline`]: {
      summary: "Decline a merge request",
      who: "members of the team asked",
      auth: "required",
      ok: { 200: { description: "declined", reply: z.object({ id: z.uuid(), status: z.literal("declined") }) } },
      errors: [403, 409],
    },
    [`POST ${slug}/teams/merge-requests/{id}/cancel`]: {
      summary: "Cancel the caller's team's merge request",
      who: "members of the team that asked",
      auth: "required",
      ok: { 200: { description: "cancelled", reply: z.object({ id: z.uuid(), status: z.literal("cancelled") }) } },
      errors: [403, 409],
    },
    [`POST ${slug}/submissions`]: {
      summary: "Submit predictions (id,prediction); with ?sandbox=true, organizers test a file against the key",
      who: "team members (sandbox: organizers)",
      auth: "required",
      query: fileQuery.extend({ sandbox: z.enum(["true"]).optional() }),
      headers: { "Idempotency-Key": "a key of the team's in this competition (1 to 200 characters): the same file again returns the first result, another file is a 409" },
      body: "csv-or-multipart",
      ok: {
        201: { description: "the answer (a sandbox test: its exact scores)", reply: submissionResultSchema, alternatives: [sandboxTestSchema] },
        200: { description: "the first answer to this Idempotency-Key", reply: submissionResultSchema },
      },
      errors: [403, 409, 429],
    },
    [`GET ${slug}/submissions`]: {
      summary: "The caller's team's submissions and its final selection",
      who: "team members",
      auth: "required",
      ok: { 200: { description: "the submissions", reply: z.object({ submissions: z.array(mySubmissionSchema), final: z.array(z.uuid()) }) } },
      errors: [403],
    },
    [`PUT ${slug}/submissions/{id}/final`]: {
      summary: "Select a submission for the final standings (up to 2), or unselect it",
      who: "team members",
      auth: "required",
      body: finalSelectionSchema,
      ok: { 200: { description: "the selection", reply: z.object({ id: z.uuid(), selected: z.boolean() }) } },
      errors: [403, 409],
    },
    [`GET ${slug}/submissions/{id}/file`]: {
      summary: "The uploaded file, byte for byte (streamed, with its original Content-Length)",
      who: "the team's members, organizers",
      auth: "required",
      ok: { 200: { description: "the file", reply: { csv: "the file as it was uploaded" } } },
    },
    [`GET ${slug}/submissions/all`]: {
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
    [`GET ${slug}/sandbox`]: {
      summary: "Every sandbox test with its exact scores",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the tests", reply: z.object({ tests: z.array(sandboxTestSchema) }) } },
      errors: [403],
    },
    [`PUT ${slug}/sandbox/{id}/baseline`]: {
      summary: "Show a sandbox test on the leaderboard as an unranked baseline with its public score",
      who: "organizers",
      auth: "required",
      body: baselineSchema,
      ok: { 200: { description: "the test", reply: sandboxTestSchema } },
      errors: [403, 409],
    },
    [`DELETE ${slug}/sandbox/{id}/baseline`]: {
      summary: "Hide a baseline",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the test", reply: sandboxTestSchema } },
      errors: [403],
    },
    [`POST ${slug}/teams/{teamId}/disqualify`]: {
      summary: "Disqualify a team: off the live and final boards, no more submissions, no budget restored",
      who: "organizers",
      auth: "required",
      body: disqualifySchema,
      ok: { 200: { description: "the team", reply: disqualificationSchema } },
      errors: [403, 409],
    },
    [`DELETE ${slug}/teams/{teamId}/disqualify`]: {
      summary: "Reinstate a disqualified team",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the team", reply: disqualificationSchema } },
      errors: [403, 409],
    },
    [`POST ${slug}/bans`]: {
      summary: "Ban a user who takes part from the competition",
      who: "organizers",
      auth: "required",
      body: banRequestSchema,
      ok: { 201: { description: "the ban", reply: banSchema } },
      errors: [403, 409],
    },
    [`GET ${slug}/bans`]: {
      summary: "The users banned from the competition",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "the bans", reply: z.object({ bans: z.array(banSchema) }) } },
      errors: [403],
    },
    [`DELETE ${slug}/bans/{userId}`]: {
      summary: "Lift a ban",
      who: "organizers",
      auth: "required",
      ok: { 200: { description: "lifted", reply: deleted } },
      errors: [403],
    },
  }),
  ...group("Viewing", {
    [`GET ${slug}/leaderboard`]: {
      summary: "A page of the live leaderboard (100 entries unless pageSize says otherwise, with the next page's address), or every entry as CSV",
      who: "anyone",
      auth: "optional",
      query: leaderboardQuerySchema,
      ok: {
        200: {
          description: "a page of the board",
          reply: leaderboardSchema,
          alternatives: [{ csv: "every entry: rank, team, score, kind, bound, uncertainty, submissions, budget, last submission" }],
        },
      },
    },
    [`GET ${slug}/leaderboard/late`]: {
      summary: "The late board: each team's best exact holdout score among its late submissions",
      who: "anyone",
      auth: "optional",
      ok: { 200: { description: "the late board", reply: lateBoardSchema } },
    },
    [`GET ${slug}/teams/{teamId}`]: {
      summary: "A team's members, its place on the board and its score history",
      who: "anyone",
      auth: "optional",
      ok: { 200: { description: "the team's page", reply: teamHistorySchema } },
    },
    [`GET ${slug}/final`]: {
      summary:
        "The final standings, once closed: each exact final score with its bound (valid under the whole competition's adaptivity), the teams it is tied with, the shake-up; or as CSV",
      who: "anyone",
      auth: "optional",
      query: z.object({ format: z.enum(["csv"]).optional() }),
      ok: {
        200: {
          description: "the final standings",
          reply: finalStandingsSchema,
          alternatives: [{ csv: "every entry: rank, team, score, bound, tied_with (team names), live_rank, shake_up" }],
        },
      },
      errors: [409],
    },
    "POST /api/v1/calibrate": {
      summary: "The calibration planner: ε_DP for an ε_BDP, ε_BDP for an ε_DP, or the plan for mechanism settings (as npm run calibrate)",
      who: "anyone",
      auth: "none",
      body: calibrationRequestSchema,
      ok: { 200: { description: "the answer", reply: calibrationAnswerSchema } },
      errors: [429],
    },
    "GET /api/v1/openapi.json": {
      summary: "This document",
      who: "anyone",
      auth: "none",
      ok: { 200: { description: "the OpenAPI 3.1 document of the API", reply: z.object({ openapi: z.string() }).passthrough() } },
    },
  }),
  ...group("Service", {
    "GET /api/health": {
      summary: "Liveness and readiness: 200 when the database answers",
      who: "anyone",
      auth: "none",
      ok: { 200: { description: "healthy", reply: z.object({ status: z.literal("ok") }) } },
    },
    "GET /api/metrics": {
      summary: "Prometheus metrics (404 when METRICS_TOKEN is unset)",
      who: "Authorization: Bearer $METRICS_TOKEN",
      auth: "metrics",
      ok: { 200: { description: "Prometheus text format", reply: { text: "the metrics" } } },
      errors: [404],
    },
  }),
};

/** The statuses an operation may answer with an error body: its own, and those its auth, path and body bring. */
export function errorStatuses(key: string, operation: Operation): number[] {
  const path = key.split(" ")[1];
  const statuses = new Set([...(operation.errors ?? []), 503]);
  if (operation.auth !== "none") statuses.add(401); // where signing in is optional, a bad Bearer token is still refused
  if (operation.auth === "required" && !key.startsWith("GET ")) statuses.add(403); // a write with the web session from another site
  if (path.includes("{")) [404, 422].forEach((s) => statuses.add(s)); // 422: a path parameter holding a NUL
  if (operation.query) statuses.add(422);
  if (operation.body) [400, 408, 413, 415, 422].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

/** The security requirements of each kind of auth (components.securitySchemes). */
const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  optional: [{}, { bearer: [] }, { session: [] }],
  required: [{ bearer: [] }, { session: [] }],
  basic: [{ basic: [] }, { session: [] }],
  metrics: [{ metrics: [] }],
};

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as they are parsed (`input`),
 * answers as they are written (`output`). Schemas named with `.meta({id})` become components, shared
 * by reference; a date read from a string is a date-time string.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: ({ zodSchema }) => (zodSchema._zod.def.type === "date" ? { type: "string", format: "date-time" } : "throw"),
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const { $schema, $defs, ...rest } = converted;
  void $schema;
  for (const [id, def] of Object.entries($defs ?? {})) {
    const known = components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`the schema ${id} converts differently in two places (input and output?)`);
    components[id] = def;
  }
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

function content(reply: Reply, components: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  if ("csv" in reply) return { "text/csv": { schema: { type: "string", description: reply.csv } } };
  if ("file" in reply) {
    const type = reply.mediaType ?? "application/octet-stream";
    return { [type]: { schema: { type: "string", ...(type === "*/*" ? {} : { contentMediaType: type }), description: reply.file } } };
  }
  if ("text" in reply) return { "text/plain": { schema: { type: "string", description: reply.text } } };
  if ("nothing" in reply) return {};
  return { "application/json": { schema: jsonSchemaOf(reply as z.ZodType, "output", components) } };
}

/** The answers' media types and schemas: one per media type, `anyOf` where an endpoint answers one of several JSON bodies. */
function replies(main: Reply, alternatives: Reply[], components: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  const merged: Record<string, { schema: JsonSchema }> = {};
  for (const reply of [main, ...alternatives]) {
    for (const [type, media] of Object.entries(content(reply, components))) {
      merged[type] = merged[type] ? { schema: { anyOf: [...((merged[type].schema.anyOf as JsonSchema[] | undefined) ?? [merged[type].schema]), media.schema] } } : media;
    }
  }
  return merged;
}

function requestBody(body: Body, components: Record<string, JsonSchema>): JsonSchema {
  const csv = { "text/csv": { schema: { type: "string", description: "the CSV file" } } };
  const multipart = {
    "multipart/form-data": {
      schema: {
        type: "object",
        properties: { file: { type: "string", contentMediaType: "application/octet-stream" }, description: { type: "string", maxLength: 500 } },
        required: ["file"],
      },
    },
  };
  if (body === "csv") return { required: true, content: csv };
  if (body === "multipart") return { required: true, content: multipart };
  if (body === "csv-or-multipart") return { required: true, content: { ...csv, ...multipart } };
  if (body === "bytes")
    return {
      required: true,
      content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream", description: "the part's bytes" } } },
    };
  // A JSON body is required unless the server takes its absence (read as {}) as a valid request.
  return { required: !body.safeParse({}).success, content: { "application/json": { schema: jsonSchemaOf(body, "input", components) } } };
}

let built: JsonSchema | undefined;

/** The OpenAPI 3.1 document of the API (docs/api.md), built once. */
export function openApiDocument(): JsonSchema {
  if (built) return built;
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const retryAfter = { "Retry-After": { description: "seconds to wait before trying again", schema: { type: "integer" } } };
  for (const [key, operation] of Object.entries(OPERATIONS)) {
    const [method, path] = key.split(" ");
    const parameters: JsonSchema[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    if (operation.query) {
      const query = jsonSchemaOf(operation.query, "input", components) as { properties: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties)) parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
    }
    for (const [name, description] of Object.entries(operation.headers ?? {}))
      parameters.push({ name, in: "header", required: false, description, schema: { type: "string", minLength: 1, maxLength: 200 } });
    const responses: Record<string, JsonSchema> = {};
    for (const [status, ok] of Object.entries(operation.ok)) {
      const answers = replies(ok.reply, ok.alternatives ?? [], components);
      responses[status] = { description: ok.description, ...(Object.keys(answers).length ? { content: answers } : {}) };
    }
    for (const status of errorStatuses(key, operation)) {
      responses[status] = {
        description: `${ERRORS[status]} (code ${codesOf(status)})`,
        ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    (paths[path] ??= {})[method.toLowerCase() as Method] = {
      operationId: `${method.toLowerCase()}${path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      summary: operation.summary,
      description: `Who: ${operation.who}.`,
      tags: [operation.tag],
      security: SECURITY[operation.auth],
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body ? { requestBody: requestBody(operation.body, components) } : {}),
      responses,
    };
  }
  jsonSchemaOf(errorBodySchema, "output", components);
  built = {
    openapi: "3.1.0",
    info: {
      title: "Quiltboard",
      version: "1",
      // The repository grants no licence (no LICENSE file): the API is proprietary until its owners choose one.
      license: { name: "Proprietary" },
      summary: "A Kaggle-style competition platform whose leaderboard cannot be overfit",
      description:
        "The REST API (docs/api.md). JSON in and out, except CSV uploads and exports. Authenticate with `Authorization: Bearer <token>` (tokens from POST /api/v1/tokens) or the web session's cookie; every error is `{error: {code, message, details?}}`.",
    },
    // Relative to the document's own address: whichever host serves it is the API's server.
    servers: [{ url: "/", description: "the Quiltboard instance that serves this document" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "a personal API token (POST /api/v1/tokens or the account page)" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "the web session (writes must come from this site); over HTTPS the cookie is __Secure-next-auth.session-token",
        },
        basic: { type: "http", scheme: "basic", description: "email:password, to create a token" },
        metrics: { type: "http", scheme: "bearer", description: "$METRICS_TOKEN" },
      },
    },
  };
  return built;
}
