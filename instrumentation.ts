// Next.js calls register() once when a server instance starts: Quiltboard's background work (the
// automatic close at each competition's end) starts here, in the Node.js runtime only.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startScheduler } = await import("./lib/server/boards/scheduler");
  startScheduler();
}
