// npm run admin -- create EMAIL [--name NAME] – creates an administrator account. The password is
// asked for on the terminal (twice, not echoed) or read from the first line of stdin, so it never
// appears in the shell history or the process list. Works on DATABASE_URL or the embedded database
// (running or not), and applies pending migrations first, so it can run before the first `npm start`.
import { createInterface } from "node:readline";
import { DATA_DIR } from "./app";
import { startAppDatabase } from "./db/database";
import { migrate } from "./db/migrate";

const USAGE = "usage: npm run admin -- create EMAIL [--name NAME]   (the password is read from the terminal or stdin)";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** One line from a terminal with echo off, or the first line of piped stdin. */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) {
      lines.close();
      return line;
    }
    return "";
  }
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    output._writeToOutput = (s: string) => void (s.startsWith(prompt) ? process.stdout.write(prompt) : undefined);
  });
}

const [command, email, ...rest] = process.argv.slice(2);
if (command !== "create" || !email) fail(USAGE);
const nameAt = rest.indexOf("--name");
const name = nameAt >= 0 ? rest[nameAt + 1] : "Administrator";
if (name === undefined) fail(USAGE);

const password = await readPassword("Password for the new administrator: ");
if (process.stdin.isTTY && (await readPassword("Repeat the password: ")) !== password) fail("the two passwords differ; nothing was created");

const database = await startAppDatabase(DATA_DIR, () => {});
try {
  await migrate(database.url);
  process.env.DATABASE_URL = database.url;
  const { createUser } = await import("@/lib/server/users");
  const { toErrorResponse } = await import("@/lib/server/errors");
  try {
    const user = await createUser({ email, password, name }, "admin");
    console.log(`created administrator ${user.email}; sign in at /signin`);
  } catch (error) {
    console.error(`nothing was created: ${toErrorResponse(error).body.error.message}`);
    process.exitCode = 1;
  }
  const { db } = await import("@/lib/server/db");
  await db.$disconnect();
} finally {
  await database.stop();
}
