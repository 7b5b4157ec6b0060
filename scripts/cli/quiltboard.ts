// The `quiltboard` command: Quiltboard's REST API from the terminal, with Kaggle's command names
// (`quiltboard competitions submit SLUG -f FILE -m MESSAGE`, or without "competitions"), for
// competitors (list, files, download, submit, submissions, leaderboard, limits) and organizers (push
// a competition bundle). It talks to QUILTBOARD_URL with QUILTBOARD_TOKEN, or with what `quiltboard
// login` stored. Every error is one line on stderr and a non-zero exit; --json prints the API's
// answer for scripts. Shipped as one bundled file (scripts/cli/build.ts) that needs only Node.
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { verificationLines, verifyCompetition } from "./verify";
import { Client, CliError, loadConfig, saveConfig } from "./client";
import { readLine } from "../terminal";
import { pushBundle } from "./bundle";

/** Set by the bundler (scripts/cli/build.ts) to the package's version. */
declare const QUILTBOARD_VERSION: string | undefined;
const VERSION = typeof QUILTBOARD_VERSION === "string" ? QUILTBOARD_VERSION : "development";

const USAGE = `usage: quiltboard [competitions] <command> [options]

  competitions list                           the competitions you can see
  competitions files SLUG                     a competition's data files
  competitions download SLUG [-f NAME] [-p DIR]   its data files (or one of them) into DIR (default ./SLUG)
  competitions download SLUG --submission ID [-p DIR]   one of your team's submitted files
  competitions submit SLUG -f FILE [-m TEXT]  score a predictions CSV: the answer, its kind, the budget left
  competitions submissions SLUG               your team's submissions
  competitions leaderboard SLUG [--page N]    the live leaderboard, 100 teams a page (the final standings once closed)
  competitions limits SLUG                    submissions left today and when the count resets
  competitions verify SLUG                    check a revealed competition: its commitment and every answer, replayed
  login [--url URL] [--email EMAIL]           store an API token for this machine (password from the terminal or stdin)
  push DIR                                    create or update a competition from a bundle (organizers; also: create DIR)

"competitions" may be shortened to "c" or left out: quiltboard submit SLUG -f FILE (or SLUG FILE).
options: --json (the API's answer as JSON), --url URL, --token TOKEN, --version, --help
environment: QUILTBOARD_URL, QUILTBOARD_TOKEN (override what login stored)`;

const OPTIONS = {
  file: { type: "string", short: "f" },
  message: { type: "string", short: "m" },
  path: { type: "string", short: "p" },
  competition: { type: "string", short: "c" },
  submission: { type: "string" },
  page: { type: "string" },
  url: { type: "string" },
  token: { type: "string" },
  email: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type Options = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "string" ? string : boolean };

/** The command line as node:util parseArgs reads it (--url=X and --url X alike); a mistake is exit code 2. */
function readArgs(argv: string[]): { command: string | undefined; rest: string[]; options: Options } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(((error as Error).message.split("\n")[0] ?? "").replace(/\.$/, "").replace(/^Unknown option '([^']+)'.*/, "unknown option $1"), 2);
  }
  const positional = [...parsed.positionals];
  if (positional[0] === "competitions" || positional[0] === "c") positional.shift();
  const [command, ...rest] = positional;
  // Kaggle's older form names the competition with -c.
  if (parsed.values.competition !== undefined) rest.unshift(parsed.values.competition);
  return { command, rest, options: parsed.values as Options };
}

type Answer = {
  id: string;
  createdAt: string;
  answer: { kind: string; score: number | null; publicScore: number; bound: number | null };
  budget: { remaining: number; initial: number };
};
type Limits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };

const KIND: Record<string, string> = {
  public: "public score, checked against the holdout (nothing spent)",
  holdout: "checked on the holdout: one unit spent (a noisy holdout score)",
  exhausted: "public score, not checked: the team's holdout checks are used up",
  limit: "public score, not checked: the competition's limit of scored submissions is reached",
  capped: "public score, not checked: the competition's cap on holdout checks is reached",
  late: "late submission: the exact holdout score, off the final standings",
};

function limitsLine(l: Limits): string {
  return `${l.remainingToday} of ${l.dailyLimit} submissions left today (resets ${l.resetsAt.slice(0, 16).replace("T", " ")} UTC)`;
}

function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const numeric = rows[0].map((_, i) => rows.slice(1).every((r) => typeof r[i] === "number" || /^(-?\d+(\.\d+)?|—)$/.test(String(r[i]))));
  return rows
    .map((r) =>
      r
        .map((c, i) => (numeric[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
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

const bytes = (n: number) => `${n.toLocaleString("en")} bytes`;

export async function run(argv: string[], out: (line: string) => void): Promise<void> {
  const { command, rest, options } = readArgs(argv);
  if (options.version) return out(VERSION);
  if (!command || options.help) return out(USAGE);
  const json = options.json === true;
  const config = loadConfig();
  const url = options.url ?? process.env.QUILTBOARD_URL ?? config.url ?? "http://localhost:3000";
  const need = (n: number, what: string) => {
    if (rest.length < n) throw new CliError(`usage: quiltboard ${command} ${what}`, 2);
  };

  if (command === "login") {
    const email = options.email ?? (await readLine("email: ", { echo: true }));
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

  const client = new Client(url, options.token ?? process.env.QUILTBOARD_TOKEN ?? config.token ?? null);
  if (command === "list") {
    const { competitions } = await client.request<{ competitions: { slug: string; title: string; status: string; metric: string; endsAt: string; teams: number }[] }>(
      "GET",
      "/api/v1/competitions",
    );
    if (json) return out(JSON.stringify({ competitions }));
    if (competitions.length === 0) return out("no competitions yet");
    return out(
      table([
        ["slug", "title", "status", "metric", "deadline (UTC)", "teams"],
        ...competitions.map((c) => [c.slug, c.title, c.status, c.metric, c.endsAt.slice(0, 16).replace("T", " "), c.teams]),
      ]),
    );
  }
  if (command === "push" || command === "create") {
    need(1, "DIR");
    const steps = await pushBundle(client, rest[0], json ? () => {} : out);
    if (json) out(JSON.stringify(steps));
    return;
  }

  const slug = rest[0];
  const base = () => `/api/v1/competitions/${encodeURIComponent(slug)}`;
  /** Scores as the pages show them: at the competition's display precision. */
  const precision = async () => (await client.request<{ displayPrecision: number }>("GET", base())).displayPrecision;
  const score = (x: number | null, p: number) => (x === null ? "—" : x.toFixed(p));
  /** A score's bound, the ± the mechanism proves for it (docs/mechanism.md §2.8), to two significant digits. */
  const plusMinus = (bound: number | null) => (bound === null ? "" : `± ${Number(bound.toPrecision(2))}`);
  switch (command) {
    case "submit": {
      need(1, "SLUG -f FILE [-m TEXT]");
      const file = options.file ?? rest[1];
      if (!file) throw new CliError(`usage: quiltboard submit SLUG -f FILE [-m TEXT]`, 2);
      const { body } = fileBody(file);
      const query = new URLSearchParams({ filename: path.basename(file) });
      if (options.message) query.set("description", options.message);
      const result = await client.request<Answer>("POST", `${base()}/submissions?${query}`, { body, contentType: "text/csv" });
      const team = await client.request<{ limits: Limits }>("GET", `${base()}/team`).catch(() => null);
      if (json) return out(JSON.stringify({ ...result, limits: team?.limits ?? null }));
      // The team always sees its public score: as the answer when nothing was checked, beside a holdout answer otherwise.
      const { kind, score: answer, publicScore, bound } = result.answer;
      const p = await precision();
      const shown = [score(answer ?? publicScore, p), plusMinus(bound)].filter(Boolean).join(" ");
      out(`${shown}  ${KIND[kind] ?? kind}${kind === "holdout" ? `; public score ${score(publicScore, p)}` : ""}`);
      out(`budget ${result.budget.remaining} of ${result.budget.initial} left${team ? `; ${limitsLine(team.limits)}` : ""}`);
      return;
    }
    case "submissions": {
      need(1, "SLUG");
      const data = await client.request<{
        submissions: (Answer & { by: string; description: string | null; filename: string | null; selected: boolean; privateScore?: number })[];
        final: string[];
      }>("GET", `${base()}/submissions`);
      if (json) return out(JSON.stringify(data));
      if (data.submissions.length === 0) return out("no submissions yet");
      const p = await precision();
      // Once the competition has closed, each submission's private (holdout) score too.
      const closed = data.submissions.some((s) => s.privateScore !== undefined);
      const rows = data.submissions.map((s) => [
        s.createdAt.slice(0, 19).replace("T", " "),
        s.id.slice(0, 8),
        s.answer.kind,
        score(s.answer.score, p),
        plusMinus(s.answer.bound),
        score(s.answer.publicScore, p),
        ...(closed ? [score(s.privateScore ?? null, p)] : []),
        `${s.budget.remaining}/${s.budget.initial}`,
        data.final.includes(s.id) ? "final" : "",
        s.filename ?? "",
        s.description ?? "",
      ]);
      return out(table([["time (UTC)", "id", "kind", "answer", "±", "public", ...(closed ? ["private"] : []), "budget", "", "file", "note"], ...rows]));
    }
    case "leaderboard": {
      need(1, "SLUG");
      const details = await client.request<{ status: string; displayPrecision: number }>("GET", base());
      const p = details.displayPrecision;
      if (details.status === "closed") {
        const final = await client.request<{ entries: { rank: number; team: string; score: number; bound: number | null; tiedWith: string[]; liveRank: number | null }[] }>(
          "GET",
          `${base()}/final`,
        );
        if (json) return out(JSON.stringify(final));
        // ≈: tied with another team, their intervals overlap (no proof tells their order apart)
        return out(
          table([
            ["#", "team", "final score", "±", "live rank"],
            ...final.entries.map((e) => [`${e.tiedWith.length ? "≈" : ""}${e.rank}`, e.team, score(e.score, p), plusMinus(e.bound), e.liveRank ?? "—"]),
          ]),
        );
      }
      const page = options.page ?? "1";
      const board = await client.request<{
        total: number;
        pageSize: number;
        next: string | null;
        entries: {
          rank: number;
          team: string;
          score: number | null;
          kind: string | null;
          bound: number | null;
          submissions: number;
          budget: { remaining: number; initial: number };
        }[];
      }>("GET", `${base()}/leaderboard?page=${encodeURIComponent(page)}`);
      if (json) return out(JSON.stringify(board));
      if (board.entries.length === 0) return out(board.total === 0 ? "no submissions yet" : `no page ${page}: the board has ${board.total} teams`);
      const more = board.next
        ? `\npage ${page} of ${Math.ceil(board.total / board.pageSize)} (${board.total} teams): quiltboard leaderboard ${slug} --page ${Number(page) + 1}`
        : "";
      return out(
        table([
          // kind: a checked public score, or (without one) the team's latest holdout answer
          ["#", "team", "score", "±", "kind", "entries", "budget"],
          ...board.entries.map((e) => [
            e.rank,
            e.team,
            score(e.score, p),
            e.bound === null ? "" : Number(e.bound.toPrecision(2)),
            e.kind ?? "",
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
    case "verify": {
      need(1, "SLUG");
      const verification = await verifyCompetition(client, slug);
      if (json) out(JSON.stringify(verification));
      else out(verificationLines(verification).join("\n"));
      if (!verification.solution || !verification.secret || verification.answers.mismatches > 0) throw new CliError("the competition does not verify", 1);
      return;
    }
    case "files": {
      need(1, "SLUG");
      const { attachments } = await client.request<{ attachments: { id: string; filename: string; size: number }[] }>("GET", `${base()}/attachments`);
      if (json) return out(JSON.stringify({ attachments }));
      if (attachments.length === 0) return out("this competition has no data files");
      return out(table([["name", "size (bytes)"], ...attachments.map((a) => [a.filename, a.size])]));
    }
    case "download": {
      need(1, "SLUG [-f NAME] [-p DIR] | SLUG --submission ID [-p DIR]");
      const dir = options.path ?? (options.submission ? "." : slug);
      mkdirSync(dir, { recursive: true });
      if (options.submission) {
        const { bytes: data, filename } = await client.download(`${base()}/submissions/${encodeURIComponent(options.submission)}/file`);
        const target = path.join(dir, filename ?? `${options.submission}.csv`);
        writeFileSync(target, data);
        return out(json ? JSON.stringify({ file: target, bytes: data.length }) : `${target} (${bytes(data.length)})`);
      }
      const { attachments } = await client.request<{ attachments: { id: string; filename: string; size: number }[] }>("GET", `${base()}/attachments`);
      const wanted = options.file ? attachments.filter((a) => a.filename === options.file) : attachments;
      if (options.file && wanted.length === 0) throw new CliError(`no data file called ${options.file}; quiltboard files ${slug} lists them`);
      if (wanted.length === 0) return out("this competition has no data files");
      const written = [];
      for (const a of wanted) {
        const { bytes: data } = await client.download(`${base()}/attachments/${a.id}`);
        const target = path.join(dir, path.basename(a.filename));
        writeFileSync(target, data);
        written.push({ file: target, bytes: data.length });
        if (!json) out(`${target} (${bytes(data.length)})`);
      }
      if (json) out(JSON.stringify(written));
      return;
    }
    default:
      throw new CliError(`unknown command "${command}"; see quiltboard --help`, 2);
  }
}

/** The command line's entry (the bundle's last line): output on stdout, one error line on stderr, the exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv, (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    const message = error instanceof CliError ? error.message : `unexpected error: ${(error as Error).message}`;
    process.stderr.write(`quiltboard: ${message.replace(/\s*\n\s*/g, "; ")}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
