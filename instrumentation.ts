// Next.js calls register() once when a server instance starts, in the Node.js runtime only here.
// It checks the configuration first (lib/server/platform/env.ts; the entry, scripts/server-entry.ts,
// has already checked it when the app is started the usual way): a malformed or missing variable
// stops the server with a message naming each, rather than leaving it running half-configured. Then
// the file store is claimed (a local directory that is not this database's stops the start:
// lib/server/platform/files.ts claimLocalStore), data files still kept in the database are moved
// into it in the background, and Quiltboard's background work starts: the automatic close at each
// competition's end.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { exitIfMisconfigured } = await import("./lib/server/platform/env");
  exitIfMisconfigured(["DATABASE_URL", "NEXTAUTH_SECRET"]);
  const { claimLocalStore } = await import("./lib/server/platform/files");
  const { log } = await import("./lib/server/platform/log");
  try {
    await claimLocalStore();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const { moveAttachmentsToStore } = await import("./lib/server/competitions/attachments");
  moveAttachmentsToStore().then(
    (moved) => moved && log.info({ moved }, "data files moved from the database into the file store"),
    (error: unknown) => log.error({ err: (error as Error).message }, "moving data files into the file store failed; the next start tries again"),
  );
  const { startScheduler } = await import("./lib/server/boards/scheduler");
  startScheduler();
}
