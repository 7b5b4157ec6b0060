// Next.js calls register() once when a server instance starts, in the Node.js runtime only here.
// It checks the configuration first (lib/server/platform/env.ts; the entry, scripts/server-entry.ts,
// has already checked it when the app is started the usual way): a malformed or missing variable
// stops the server with a message naming each, rather than leaving it running half-configured. Then
// Quiltboard's background work starts: the automatic close at each competition's end.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { exitIfMisconfigured } = await import("./lib/server/platform/env");
  exitIfMisconfigured(["DATABASE_URL", "NEXTAUTH_SECRET"]);
  const { startScheduler } = await import("./lib/server/boards/scheduler");
  startScheduler();
}
