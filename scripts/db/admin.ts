import { createServer } from "node:net";
import pg from "pg";

/** A free TCP port on 127.0.0.1: `preferred` when it is free, else one chosen by the kernel. */
export function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", (error) => (preferred ? resolve(freePort()) : reject(error)));
    server.listen(preferred, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CREATE DATABASE unless it exists, through the maintenance database at `adminUrl`. */
export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** DROP DATABASE (for throwaway test databases on an external server). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** ALTER ROLE … PASSWORD for the user of `adminUrl` (the embedded server's superuser gets its own). */
export async function setPassword(adminUrl: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`ALTER ROLE CURRENT_USER PASSWORD '${password.replaceAll("'", "''")}'`);
  } finally {
    await client.end();
  }
}
