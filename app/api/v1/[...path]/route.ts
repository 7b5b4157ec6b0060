// /api/v1/* – anything unknown gets the API's JSON 404, not an HTML page
import { handleApi } from "@/lib/server/platform/api";
import { AppError } from "@/lib/server/platform/errors";

const notFound = handleApi(async (request) => {
  throw new AppError("not_found", `no API endpoint ${request.method} ${new URL(request.url).pathname}`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
