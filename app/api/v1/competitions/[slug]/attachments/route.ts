// GET /api/v1/competitions/[slug]/attachments – list public data files
// POST /api/v1/competitions/[slug]/attachments – attach a file (multipart field "file"; organizers)
import { handleApi, json, readMultipartFile } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { addAttachment, listAttachments, MAX_ATTACHMENT_BYTES } from "@/lib/server/competitions/attachments";
import { getVisibleCompetition } from "@/lib/server/competitions/competitions";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const viewer = await findApiUser(request);
  const competition = await getVisibleCompetition(viewer, (await params).slug);
  return json({ attachments: await listAttachments(competition.id) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { file } = await readMultipartFile(request, MAX_ATTACHMENT_BYTES + 64 * 1024, "the attachment");
  const bytes = new Uint8Array(await file.arrayBuffer());
  return json(await addAttachment(user, (await params).slug, { name: file.name, type: file.type, bytes }), 201);
});
