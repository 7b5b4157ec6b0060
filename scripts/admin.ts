// npm run admin -- create EMAIL [--name NAME] – creates an administrator account (scripts/admin-command.ts)
// on DATABASE_URL or the embedded database (running or not), so it can run before the first `npm start`.
import { runAdminCommand } from "./admin-command";
import { DATA_DIR, nextAuthSecret } from "./app";
import { startAppDatabase } from "./db/database";

// The services check the whole environment when they first reach the database (lib/server/platform/
// env.ts), NEXTAUTH_SECRET included: the one `npm start` keeps under .data/ (made here if this runs
// first), unless it is set. Without it an `npm start` install could not make its first admin.
process.env.NEXTAUTH_SECRET ||= nextAuthSecret();

process.exitCode = await runAdminCommand(process.argv.slice(2), {
  usage: "usage: npm run admin -- create EMAIL [--name NAME]   (the password is read from the terminal or stdin)",
  database: () => startAppDatabase(DATA_DIR, () => {}),
});
