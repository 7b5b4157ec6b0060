// Next.js calls register() once when a server instance starts, in the Node.js runtime only here.
// It checks the configuration first (lib/server/platform/env.ts; the entry, server/entry.ts,
// has already checked it when the app is started the usual way): a malformed or missing variable
// stops the server with a message naming each, rather than leaving it running half-configured. Then
// the file store is claimed (a local directory that is not this database's stops the start:
// lib/server/platform/files.ts claimLocalStore), files still kept in the database (data files,
// solutions', submissions') are moved into it in the background, and Quiltboard's background work
// starts (lib/server/closing/scheduler.ts): the automatic close at each competition's end, the outbox,
// and every 6 hours, on one instance of however many, the sweep of the solutions' and submissions'
// files no row names (lib/server/scoring/files.ts storeSweep).
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
  const { moveSolutionFilesToStore } = await import("./lib/server/competitions/solutions");
  const { moveSubmissionFilesToStore, storeSweep } = await import("./lib/server/scoring/files");
  void (async () => {
    let moved = 0;
    for (const move of [moveAttachmentsToStore, moveSolutionFilesToStore, moveSubmissionFilesToStore]) moved += await move();
    return moved;
  })().then(
    (moved) => moved && log.info({ moved }, "files moved from the database into the file store"),
    (error: unknown) => log.error({ err: (error as Error).message }, "moving files into the file store failed; the next start tries again"),
  );
  const { startScheduler } = await import("./lib/server/closing/scheduler");
  startScheduler([storeSweep]);
}
