import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type CompetitionStatus, Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { DEVELOPMENT, required } from "./env";
import { log } from "./log";

// One client per module instance, created on first use so that `next build` can load server
// modules without a database. In development it lives on globalThis to survive hot reloads.
// The pool is ours (not the adapter's) so that the metrics can read its state.
const globalForDb = globalThis as unknown as { quiltboardDb?: { client: PrismaClient; pool: pg.Pool } };
let instance: { client: PrismaClient; pool: pg.Pool } | undefined;

function connect(): { client: PrismaClient; pool: pg.Pool } {
  if (!instance) {
    instance = globalForDb.quiltboardDb;
    if (!instance) {
      // pipeline: a client sends a statement without waiting for the answer to the one before (`transaction`).
      const pool = new pg.Pool({ connectionString: required("DATABASE_URL"), pipeline: true });
      // An idle connection the server closes (a restart, a dropped database) is an error event on
      // the pool; unhandled, it would end the process. The pool replaces the connection on next use.
      pool.on("error", (error) => log.warn({ err: error.message }, "an idle database connection was closed"));
      instance = { client: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
    }
  }
  if (DEVELOPMENT) globalForDb.quiltboardDb = instance;
  return instance;
}

function client(): PrismaClient {
  return connect().client;
}

/** The pool's connections: all of them, the idle ones, and the queries waiting for one (zeros before first use). */
export function poolStats(): { total: number; idle: number; waiting: number } {
  const pool = instance?.pool;
  return { total: pool?.totalCount ?? 0, idle: pool?.idleCount ?? 0, waiting: pool?.waitingCount ?? 0 };
}

export const db = new Proxy({} as PrismaClient, {
  get(_, property) {
    const value = Reflect.get(client(), property);
    return typeof value === "function" ? value.bind(client()) : value;
  },
});

/** What `transaction` gives its work: statements built with Prisma.sql. */
export type Transaction = {
  /** Sends a statement; its rows. Statements sent before an earlier one's answer arrives go out together, and each still runs after the one before it. */
  read<Row>(statement: Prisma.Sql): Promise<Row[]>;
  /** Sends a statement whose rows are not needed: it goes out with the COMMIT, and its failure fails the transaction. */
  write(statement: Prisma.Sql): void;
};

/**
 * A transaction on one pooled connection through node-postgres directly, for the scoring
 * transaction that every submission runs. Prisma's interactive transaction cost 1.5 ms of CPU for
 * two statements where this costs 0.3 ms; and the pool pipelines (sends statements without waiting
 * for the answer to the one before), so BEGIN goes out with the first reads and the writes with the
 * COMMIT: two round trips in all when the work reads once and writes once (docs/performance.md, "Many submissions at once").
 * Rolled back when `work` throws or a statement fails; a statement still waiting after 30 s (a lock,
 * the database) fails it. Columns come back as node-postgres reads them: read a `timestamp` column
 * `AT TIME ZONE 'UTC'` to get its instant whatever the process's zone. With `snapshot`, a read-only
 * transaction whose statements all see one snapshot (REPEATABLE READ): reads that must agree with
 * each other (the board's order and its rows, lib/server/boards/ranking.ts).
 */
export async function transaction<T>(work: (tx: Transaction) => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
  const client = await connect().pool.connect();
  const sent: Promise<pg.QueryResult>[] = [];
  const send = (text: string, values?: unknown[]) => {
    const answer = client.query(text, values);
    answer.catch(() => {}); // awaited below, with every other statement of the transaction
    sent.push(answer);
    return answer;
  };
  let broken: Error | undefined;
  try {
    send(`BEGIN${options.snapshot ? " ISOLATION LEVEL REPEATABLE READ READ ONLY" : ""}; SET LOCAL statement_timeout = 30000`);
    const result = await work({
      read: async (statement) => (await send(statement.text, statement.values)).rows,
      write: (statement) => void send(statement.text, statement.values),
    });
    send("COMMIT"); // after a failed statement, PostgreSQL answers it by rolling back
    await Promise.all(sent);
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((lost: Error) => (broken = lost)); // a lost connection leaves the pool
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Inside a transaction: locks one team's row (FOR UPDATE). Everything that changes a team's
 * mechanism state, members or final selection takes it first, so one team's changes are serialised
 * across any number of app instances.
 */
export async function lockTeam(tx: Prisma.TransactionClient, teamId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`;
}

/**
 * Inside a transaction: a lock on a name (a transaction-scoped PostgreSQL advisory lock), held until
 * the transaction ends, for decisions that span rows no single row lock covers (one person in one
 * competition: competitions/competitions.ts lockParticipant; a competition's attachments; an
 * account's upload slots).
 */
export async function lockName(tx: Prisma.TransactionClient, name: string): Promise<void> {
  await tx.$queryRaw(nameLock(name));
}

/** The statement of `lockName`, for a node-postgres transaction (`transaction`'s `tx.read`). */
export function nameLock(name: string): Prisma.Sql {
  return Prisma.sql`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
}

/**
 * A bytea value of `size` bytes as a stream of slices of at most `sliceBytes`, each read by
 * `slice(offset, length)` (a `substring(column FROM offset + 1 FOR length)` query) only when the
 * reader wants it: a slow download holds one slice, never the whole value.
 */
export function streamSlices(size: number, slice: (offset: number, length: number) => Promise<Uint8Array>, sliceBytes = 256 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset >= size) return controller.close();
        const length = Math.min(sliceBytes, size - offset);
        const bytes = await slice(offset, length);
        offset += length;
        controller.enqueue(bytes);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Inside a transaction: a key-share lock on the competition row, as scoring takes (closing and
 * publishing wait for it), and its status as it is now. Take it before any team's row lock: closing
 * locks the competition and then writes the teams' rows.
 */
export async function shareCompetition(tx: Prisma.TransactionClient, competitionId: string): Promise<CompetitionStatus> {
  const [row] = await tx.$queryRaw<{ status: CompetitionStatus }[]>`SELECT status FROM competitions WHERE id = ${competitionId}::uuid FOR KEY SHARE`;
  return row.status;
}

/**
 * Inside a transaction: locks the competition row (FOR UPDATE) and returns its status as it is now.
 * Publishing and closing take this lock; scoring holds a key-share lock that closing waits for.
 */
export async function lockCompetition(tx: Prisma.TransactionClient, competitionId: string): Promise<CompetitionStatus> {
  const [row] = await tx.$queryRaw<{ status: CompetitionStatus }[]>`SELECT status FROM competitions WHERE id = ${competitionId}::uuid FOR UPDATE`;
  return row.status;
}

/** A unique constraint refused the write (Prisma's P2002): the caller answers 409 with what was taken. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
