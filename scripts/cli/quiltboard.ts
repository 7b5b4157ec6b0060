// The `quiltboard` command: Quiltboard's REST API from the terminal, for competitors (submit,
// submissions, leaderboard, limits, download) and organizers (push a competition bundle). It talks
// to QUILTBOARD_URL with QUILTBOARD_TOKEN, or with what `quiltboard login` stored. Every error is one
// line on stderr and a non-zero exit; --json prints the API's answer for scripts.
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { Client, CliError, loadConfig, saveConfig } from "./client";
import { readLine } from "../terminal";
import { pushBundle } from "./bundle";

const USAGE = `usage: quiltboard <command> [options]

  login [--url URL] [--email EMAIL]      store an API token for this machine (password from the terminal or stdin)
  submit SLUG FILE [-m TEXT]             score a predictions CSV: prints the answer, its kind and the budget left
  submissions SLUG                       your team's submissions
  leaderboard SLUG [--page N]            the live leaderboard, 100 teams a page (the final standings once closed)
  limits SLUG                            submissions left today and when the count resets
  download SLUG [-o DIR]                 the competition's data files (into DIR, default ./SLUG)
  download SLUG --submission ID [-o FILE]  one of your team's submitted files
  push DIR                               create or update a competition from a bundle (organizers; also: create DIR)

options: --json (the API's answer as JSON), --url URL, --token TOKEN
environment: QUILTBOARD_URL, QUILTBOARD_TOKEN (override what login stored)`;

type Args = { positional: string[]; flags: Map<string, string | true> };

const VALUE_FLAGS = new Set(["-m", "--message", "--url", "--token", "--email", "-o", "--output", "--submission", "--page"]);

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (VALUE_FLAGS.has(arg)) {
      if (i + 1 >= argv.length) throw new CliError(`${arg} needs a value`, 2);
      flags.set(arg, argv[++i]);
    } else if (arg === "--json" || arg === "--help" || arg === "-h") flags.set(arg, true);
    else if (arg.startsWith("-") && arg !== "-") throw new CliError(`unknown option ${arg}`, 2);
    else positional.push(arg);
  }
  return { positional, flags };
}

const text = (flags: Args["flags"], ...names: string[]) => names.map((n) => flags.get(n)).find((v): v is string => typeof v === "string");

type Answer = { id: string; createdAt: string; answer: { kind: string; score: number | null }; budget: { remaining: number; initial: number } };
type Limits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };

const KIND: Record<string, string> = {
  public: "public score, checked against the holdout (nothing spent)",
  holdout: "checked on the holdout: one unit spent (a noisy holdout score)",
  exhausted: "not checked: the team's holdout checks are used up",
  limit: "not checked: the competition's limit of scored submissions is reached",
  capped: "not checked: the competition's cap on holdout checks is reached",
  late: "late submission: the exact holdout score, off the final standings",
};

function limitsLine(l: Limits): string {
  return `${l.remainingToday} of ${l.dailyLimit} submissions left today (resets ${l.resetsAt.slice(0, 16).replace("T", " ")} UTC)`;
}

function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (typeof c === "number" ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** A file read as a stream that reports progress on stderr when it is large and stderr is a terminal. */
function fileBody(file: string): { body: ReadableStream<Uint8Array>; size: number } {
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`no such file: ${file}`);
  const size = statSync(file).size;
  const stream = createReadStream(file);
  if (size > 4 * 1024 * 1024 && process.stderr.isTTY) {
    let sent = 0;
    stream.on("data", (chunk) => {
      sent += chunk.length;
      process.stderr.write(`\ruploading ${path.basename(file)}: ${Math.round((100 * sent) / size)} % of ${(size / 1048576).toFixed(1)} MiB`);
      if (sent >= size) process.stderr.write("\n");
    });
  }
  return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, size };
}

export async function run(argv: string[], out: (line: string) => void): Promise<void> {
  const { positional, flags } = parseArgs(argv);
  const [command, ...rest] = positional;
  if (!command || flags.has("--help") || flags.has("-h")) return out(USAGE);
  const json = flags.has("--json");
  const config = loadConfig();
  const url = text(flags, "--url") ?? process.env.QUILTBOARD_URL ?? config.url ?? "http://localhost:3000";
  const need = (n: number, what: string) => {
    if (rest.length < n) throw new CliError(`usage: quiltboard ${command} ${what}`, 2);
  };

  if (command === "login") {
    const email = text(flags, "--email") ?? (await readLine("email: ", { echo: true }));
    const password = await readLine("password: ");
    if (!email || !password) throw new CliError("login needs an email and a password (from the terminal, or two lines on stdin)");
    const client = new Client(url, null);
    const token = await client.request<{ token: string }>("POST", "/api/v1/tokens", {
      json: { name: `quiltboard CLI on ${process.env.HOSTNAME ?? "this machine"}` },
      basic: [email, password],
    });
    const file = saveConfig({ url, token: token.token });
    return out(json ? JSON.stringify({ url, config: file }) : `signed in to ${url} as ${email}; the token is stored in ${file}`);
  }

  const client = new Client(url, text(flags, "--token") ?? process.env.QUILTBOARD_TOKEN ?? config.token ?? null);
  const slug = rest[0];
  const base = () => `/api/v1/competitions/${encodeURIComponent(slug)}`;
  switch (command) {
    case "submit": {
      need(2, "SLUG FILE [-m TEXT]");
      const { body } = fileBody(rest[1]);
      const query = new URLSearchParams({ filename: path.basename(rest[1]) });
      const message = text(flags, "-m", "--message");
      if (message) query.set("description", message);
      const result = await client.request<Answer>("POST", `${base()}/submissions?${query}`, { body, contentType: "text/csv" });
      const team = await client.request<{ limits: Limits }>("GET", `${base()}/team`).catch(() => null);
      if (json) return out(JSON.stringify({ ...result, limits: team?.limits ?? null }));
      const score = result.answer.score === null ? "—" : String(result.answer.score);
      out(`${score}  ${KIND[result.answer.kind] ?? result.answer.kind}`);
      out(`budget ${result.budget.remaining} of ${result.budget.initial} left${team ? `; ${limitsLine(team.limits)}` : ""}`);
      return;
    }
    case "submissions": {
      need(1, "SLUG");
      const data = await client.request<{ submissions: (Answer & { by: string; description: string | null; filename: string | null; selected: boolean })[]; final: string[] }>(
        "GET",
        `${base()}/submissions`,
      );
      if (json) return out(JSON.stringify(data));
      if (data.submissions.length === 0) return out("no submissions yet");
      const rows = data.submissions.map((s) => [
        s.createdAt.slice(0, 19).replace("T", " "),
        s.id.slice(0, 8),
        s.answer.kind,
        s.answer.score ?? "—",
        `${s.budget.remaining}/${s.budget.initial}`,
        data.final.includes(s.id) ? "final" : "",
        s.filename ?? "",
        s.description ?? "",
      ]);
      return out(table([["time (UTC)", "id", "kind", "score", "budget", "", "file", "note"], ...rows]));
    }
    case "leaderboard": {
      need(1, "SLUG");
      const details = await client.request<{ status: string }>("GET", base());
      if (details.status === "closed") {
        const final = await client.request<{ entries: { rank: number; team: string; score: number; liveRank: number | null }[] }>("GET", `${base()}/final`);
        if (json) return out(JSON.stringify(final));
        return out(table([["#", "team", "final score", "live rank"], ...final.entries.map((e) => [e.rank, e.team, e.score, e.liveRank ?? "—"])]));
      }
      const page = text(flags, "--page") ?? "1";
      const board = await client.request<{
        total: number;
        pageSize: number;
        next: string | null;
        entries: { rank: number; team: string; score: number | null; uncertainty: number | null; submissions: number; budget: { remaining: number; initial: number } }[];
      }>("GET", `${base()}/leaderboard?page=${encodeURIComponent(page)}`);
      if (json) return out(JSON.stringify(board));
      if (board.entries.length === 0) return out(board.total === 0 ? "no submissions yet" : `no page ${page}: the board has ${board.total} teams`);
      const more = board.next
        ? `\npage ${page} of ${Math.ceil(board.total / board.pageSize)} (${board.total} teams): quiltboard leaderboard ${slug} --page ${Number(page) + 1}`
        : "";
      return out(
        table([
          ["#", "team", "score", "±", "entries", "budget"],
          ...board.entries.map((e) => [
            e.rank,
            e.team,
            e.score ?? "—",
            e.uncertainty === null ? "" : Number(e.uncertainty.toPrecision(2)),
            e.submissions,
            `${e.budget.remaining}/${e.budget.initial}`,
          ]),
        ]) + more,
      );
    }
    case "limits": {
      need(1, "SLUG");
      const team = await client.request<{ name: string; limits: Limits; budget: { remaining: number; initial: number } }>("GET", `${base()}/team`);
      if (json) return out(JSON.stringify({ ...team.limits, budget: team.budget }));
      return out(`${limitsLine(team.limits)}; budget ${team.budget.remaining} of ${team.budget.initial} left (team ${team.name})`);
    }
    case "download": {
      need(1, "SLUG [-o DIR] | SLUG --submission ID [-o FILE]");
      const submission = text(flags, "--submission");
      if (submission) {
        const { bytes, filename } = await client.download(`${base()}/submissions/${encodeURIComponent(submission)}/file`);
        const target = text(flags, "-o", "--output") ?? filename ?? `${submission}.csv`;
        writeFileSync(target, bytes);
        return out(json ? JSON.stringify({ file: target, bytes: bytes.length }) : `${target} (${bytes.length.toLocaleString("en")} bytes)`);
      }
      const dir = text(flags, "-o", "--output") ?? slug;
      const { attachments } = await client.request<{ attachments: { id: string; filename: string; size: number }[] }>("GET", `${base()}/attachments`);
      if (attachments.length === 0) return out("this competition has no data files");
      mkdirSync(dir, { recursive: true });
      const written = [];
      for (const a of attachments) {
        const { bytes } = await client.download(`${base()}/attachments/${a.id}`);
        const target = path.join(dir, path.basename(a.filename));
        writeFileSync(target, bytes);
        written.push({ file: target, bytes: bytes.length });
        if (!json) out(`${target} (${bytes.length.toLocaleString("en")} bytes)`);
      }
      if (json) out(JSON.stringify(written));
      return;
    }
    case "push":
    case "create": {
      need(1, "DIR");
      const steps = await pushBundle(client, rest[0], json ? () => {} : out);
      if (json) out(JSON.stringify(steps));
      return;
    }
    default:
      throw new CliError(`unknown command "${command}"; see quiltboard --help`, 2);
  }
}

/** The command line's entry (scripts/quiltboard.mjs): output on stdout, one error line on stderr, the exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv, (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    const message = error instanceof CliError ? error.message : `unexpected error: ${(error as Error).message}`;
    process.stderr.write(`quiltboard: ${message.replace(/\s*\n\s*/g, "; ")}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
