// npm run admin -- create EMAIL [--name NAME] – creates an administrator account (server/admin-command.ts)
// on DATABASE_URL or the embedded database (running or not), so it can run before the first `npm start`.
import { runAdminCommand } from "../server/admin-command";
import { DATA_DIR } from "./app";
import { startAppDatabase } from "./db/database";

process.exitCode = await runAdminCommand(process.argv.slice(2), {
  usage: "usage: npm run admin -- create EMAIL [--name NAME]   (the password is read from the terminal or stdin)",
  database: () => startAppDatabase(DATA_DIR, () => {}),
});
