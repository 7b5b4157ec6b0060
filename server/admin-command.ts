// `create EMAIL [--name NAME]`: creates an administrator account on a database, after applying
// pending migrations. The password is read from the terminal (twice, not echoed) or the first line
// of stdin. Shared by `npm run admin` (scripts/admin.ts) and the standalone server's entry
// (`node entry.mjs admin create …`, server/entry.ts).
import { migrate } from "./migrate";
import { readLine } from "../lib/terminal";

export async function runAdminCommand(
  argv: string[],
  options: { usage: string; database: () => Promise<{ url: string; stop: () => Promise<void> }>; migrations?: string },
): Promise<number> {
  const [command, email, ...rest] = argv;
  const nameAt = rest.indexOf("--name");
  const name = nameAt >= 0 ? rest[nameAt + 1] : "Administrator";
  if (command !== "create" || !email || name === undefined) {
    console.error(options.usage);
    return 2;
  }
  const password = (await readLine("Password for the new administrator: ")) ?? "";
  if (process.stdin.isTTY && (await readLine("Repeat the password: ")) !== password) {
    console.error("the two passwords differ; nothing was created");
    return 1;
  }
  const database = await options.database();
  try {
    await migrate(database.url, options.migrations);
    process.env.DATABASE_URL = database.url;
    const { createUser } = await import("@/lib/server/accounts/users");
    const { toErrorResponse } = await import("@/lib/server/platform/errors");
    const { db } = await import("@/lib/server/platform/db");
    const { signUpSchema } = await import("@/lib/validation/accounts");
    try {
      // Parsed as a sign-up is (the address trimmed and lowercased); a bad field is named in the message below.
      const user = await createUser(signUpSchema.parse({ email, password, name }), "admin");
      console.log(`created administrator ${user.email}; sign in at /signin`);
      return 0;
    } catch (error) {
      console.error(`nothing was created: ${toErrorResponse(error).body.error.message}`);
      return 1;
    } finally {
      await db.$disconnect();
    }
  } finally {
    await database.stop();
  }
}
