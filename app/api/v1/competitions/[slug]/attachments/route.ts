// GET /api/v1/competitions/[slug]/attachments – list public data files
// POST /api/v1/competitions/[slug]/attachments – attach a file (multipart field "file"; organizers)
import { handleApi, json, otherMethods, requireMediaType } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { addAttachment, attachmentLimits, listAttachments } from "@/lib/server/competitions/attachments";
import { getVisibleCompetition } from "@/lib/server/competitions/competitions";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const viewer = await findApiUser(request);
  const competition = await getVisibleCompetition(viewer, (await params).slug);
  return json({ attachments: await listAttachments(competition.id) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  requireMediaType(request, ["multipart"]);
  // Nothing of the body is read until the service has checked the caller (platform/uploads.ts).
  const { file, details } = openUpload(request, { maxBytes: attachmentLimits().fileBytes, what: "the attachment", userId: user.id });
  return json(await addAttachment(user, (await params).slug, file, details), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
