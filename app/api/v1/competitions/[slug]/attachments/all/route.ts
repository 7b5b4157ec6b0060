// GET /api/v1/competitions/[slug]/attachments/all – every data file as one zip, streamed as it is written
import { findApiUser } from "@/lib/server/accounts/auth";
import { zipAttachments } from "@/lib/server/competitions/attachments";
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../../file-response";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const { slug } = await params;
  return fileResponse(await zipAttachments(await findApiUser(request), slug), { filename: `${slug}-data.zip`, contentType: "application/zip", cache: "private" });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
