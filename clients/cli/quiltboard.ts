// The `quiltboard` command: Quiltboard's REST API from the terminal, with Kaggle's command names
// (`quiltboard competitions submit SLUG -f FILE -m MESSAGE`, or without "competitions"), for
// competitors (list, files, download, submit, submissions, leaderboard, limits) and organizers (push
// a competition bundle). It talks to QUILTBOARD_URL with QUILTBOARD_TOKEN, or with what `quiltboard
// login` stored in the credentials file (~/.quiltboard/quiltboard.json, as Kaggle's kaggle.json).
// Every error is one line on stderr and a non-zero exit (2: the command line); -v/--csv prints
// tables as CSV and --json the API's answer, for scripts. Shipped as one bundled file (scripts/cli-package.ts) that needs only Node.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { verificationLines, verifyCompetition } from "./verify";
import { Client, CliError, CONFIG_KEYS, configFile, loadConfig, saveConfig, type Config, type ConfigKey } from "./client";
import { csvCell } from "../../lib/csv/writer";
import { isUuid } from "../../lib/validation/ids";
import { scoreText } from "../../lib/metrics/display";
import { readLine } from "../../lib/terminal";
import { pushBundle } from "./bundle";
import { downloadResumable } from "./download";
import { pushFile } from "./push-file";

/** Set by the bundler (scripts/cli-package.ts) to the package's version. */
declare const QUILTBOARD_VERSION: string | undefined;
const VERSION = typeof QUILTBOARD_VERSION === "string" ? QUILTBOARD_VERSION : "development";

const USAGE = `usage: quiltboard [competitions] <command> [options]

  competitions list [-s TEXT] [--status open|upcoming|closed] [--mine] [--page N]
                                              the competitions you can see (-s: titles with words starting so; --mine: those
                                              you are on a team of or organize), 500 a page
  competitions files [SLUG]                   a competition's data files
  competitions download [SLUG] [-f NAME] [-p DIR | -w] [-o]   its data files (or one) into DIR (default ./SLUG; -w: here),
                                              skipping those already there with the same SHA-256 (-o: download them again);
                                              each goes to NAME.part, which a run cut off keeps and the next resumes, and is
                                              renamed only once its SHA-256 is the listed one (a part that fails it is deleted)
  competitions download [SLUG] --submission ID [-p DIR | -w]   one of your team's submitted files
  competitions submit [SLUG] -f FILE [-m TEXT]   score a predictions CSV: the answer, its kind, the budget left
                                              (the same file again answers its first submission, nothing spent)
  competitions submissions [SLUG]             your team's submissions
  competitions leaderboard [SLUG] [--show] [--download [-p DIR]] [--page N]
                                              the live leaderboard, 100 teams a page (the final standings once closed);
                                              --download: all of it as a CSV file
  competitions limits [SLUG]                  submissions left today and when the count resets
  competitions verify [SLUG]                  check a revealed competition: its commitment and every answer, replayed
  login [--url URL] [--email EMAIL]           store an API token in the credentials file (password from the terminal or stdin)
  config view                                 the settings in use and where each comes from
  config set -n NAME -v VALUE                 store url, token or competition (the default SLUG) in the credentials file
  config unset -n NAME                        remove it
  push DIR                                    create or update a competition from a bundle (organizers; also: create DIR)
  push SLUG FILE                              upload a data file in parts, resuming an interrupted push of the same file (organizers)

"competitions" may be shortened to "c" or left out: quiltboard submit SLUG -f FILE (or SLUG FILE); SLUG
may be given with -c, or left out once config set competition names a default. IDs may be given as printed.
options: -v/--csv (tables as CSV), --json (the API's answer as JSON), -q/--quiet (no progress, no lines for
  files written or skipped), --url URL, --token TOKEN, --version, -h/--help
credentials: ~/.quiltboard/quiltboard.json (mode 0600; QUILTBOARD_CONFIG_DIR names another directory);
  QUILTBOARD_URL, QUILTBOARD_TOKEN and QUILTBOARD_COMPETITION override what it holds
exit codes: 0 done, 1 refused by the server or not done (unreachable, a failed check), 2 a wrong command line`;

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
  name: { type: "string", short: "n" },
  json: { type: "boolean" },
  csv: { type: "boolean", short: "v" },
  quiet: { type: "boolean", short: "q" },
  wp: { type: "boolean", short: "w" },
  force: { type: "boolean", short: "o" },
  show: { type: "boolean", short: "s" },
  download: { type: "boolean", short: "d" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  search: { type: "string" },
  status: { type: "string" },
  mine: { type: "boolean" },
} as const;

/** `list`'s options: -s is its --search (Kaggle's `competitions list -s TEXT`), not --show. */
const LIST_OPTIONS = { ...OPTIONS, show: { type: "boolean" }, search: { type: "string", short: "s" } } as const;

type Options = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "string" ? string : boolean };

/** The command line as node:util parseArgs reads it (--url=X and --url X alike); a mistake is exit code 2. */
function readArgs(argv: string[]): { command: string | undefined; rest: string[]; options: Options } {
  let parsed;
  try {
    // As Kaggle's, -s is --search for `list` and --show for `leaderboard`: the command picks the options.
    const positionals = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).positionals;
    const listing = positionals[positionals[0] === "competitions" || positionals[0] === "c" ? 1 : 0] === "list";
    parsed = parseArgs({ args: argv, options: listing ? LIST_OPTIONS : OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(((error as Error).message.split("\n")[0] ?? "").replace(/\.$/, "").replace(/^Unknown option '([^']+)'.*/, "unknown option $1"), 2);
  }
  const positional = [...parsed.positionals];
  if (positional[0] === "competitions" || positional[0] === "c") positional.shift();
  const [command, ...rest] = positional;
  return { command, rest, options: parsed.values as Options };
}

/** The commands that act on one competition: its slug first (or -c SLUG, or the default competition). */
const ON_A_COMPETITION = new Set(["submit", "submissions", "leaderboard", "limits", "verify", "files", "download"]);

type Answer = {
  id: string;
  createdAt: string;
  answer: { kind: string; score: number | null; publicScore: number; bound: number | null; decimals: number };
  budget: { remaining: number; initial: number };
};
type Limits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };
type Attachment = { id: string; filename: string; size: number; sha256: string };

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

/** Rows as CSV (-v/--csv, as Kaggle's): text quoted when needed and defused as a spreadsheet formula (lib/csv/writer.ts). */
function csv(rows: (string | number | null)[][]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\n");
}

/** A file's SHA-256 (hex), read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A file read as a stream that reports progress on stderr when it is large and stderr is a terminal. */
function fileBody(file: string, progress: boolean): { body: ReadableStream<Uint8Array>; size: number } {
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`no such file: ${file}`);
  const size = statSync(file).size;
  const stream = createReadStream(file);
  if (progress && size > 4 * 1024 * 1024 && process.stderr.isTTY) {
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

/** Writes `data` to `target` whole or not at all (a file beside it, renamed). */
function writeWhole(target: string, data: Uint8Array): void {
  const partial = `${target}.part`;
  writeFileSync(partial, data);
  renameSync(partial, target);
}

/** `config view|set|unset` (Kaggle's `kaggle config`): the credentials file's settings. */
async function configCommand(rest: string[], options: Options, config: Config, out: (line: string) => void): Promise<void> {
  const [action, ...args] = rest;
  const file = configFile();
  if (action === "view" || action === undefined) {
    const env: Record<ConfigKey, string> = { url: "QUILTBOARD_URL", token: "QUILTBOARD_TOKEN", competition: "QUILTBOARD_COMPETITION" };
    const settings = CONFIG_KEYS.map((key) => {
      const fromEnv = process.env[env[key]];
      const value = fromEnv || config[key] || null;
      // A token is shown by its first characters only: enough to tell two apart, not to use one.
      return { key, value: value && key === "token" ? `${value.slice(0, 7)}…` : value, from: fromEnv ? env[key] : config[key] ? "file" : null };
    });
    if (options.json) return out(JSON.stringify({ file, ...Object.fromEntries(settings.map((s) => [s.key, s.value])) }));
    out(`config file: ${file}${existsSync(file) ? "" : " (none yet)"}`);
    for (const s of settings) out(`${s.key}: ${s.value ?? "(not set)"}${s.from && s.from !== "file" ? ` (from ${s.from})` : ""}`);
    return;
  }
  if (action !== "set" && action !== "unset") throw new CliError(`unknown config action "${action}"; config view, config set -n NAME -v VALUE, config unset -n NAME`, 2);
  // Kaggle's form `config set -n NAME -v VALUE` (here -v is a flag and VALUE a positional argument), or `config set NAME VALUE`.
  const name = options.name ?? args.shift();
  if (!name || !(CONFIG_KEYS as readonly string[]).includes(name)) {
    throw new CliError(`usage: quiltboard config ${action} -n NAME${action === "set" ? " -v VALUE" : ""}, NAME one of ${CONFIG_KEYS.join(", ")}`, 2);
  }
  const key = name as ConfigKey;
  const stored = { ...config };
  if (action === "unset") delete stored[key];
  else {
    const value = args[0] ?? (key === "token" ? await readLine("token: ") : null);
    if (!value) throw new CliError(`usage: quiltboard config set -n ${key} -v VALUE`, 2);
    if (key === "url" && !/^https?:\/\/[^/]/.test(value)) throw new CliError(`url must start with http:// or https:// (not ${JSON.stringify(value)})`, 2);
    if (key === "competition" && !/^[a-z0-9][a-z0-9-]*$/.test(value)) throw new CliError(`a competition is named by its slug, as in its address (not ${JSON.stringify(value)})`, 2);
    stored[key] = value;
  }
  saveConfig(stored);
  if (!options.quiet) out(action === "set" ? `${key} set in ${file}` : `${key} removed from ${file}`);
}

export async function run(argv: string[], out: (line: string) => void, warn: (line: string) => void = () => {}): Promise<void> {
  const { command, rest, options } = readArgs(argv);
  // Kaggle's `kaggle -v` alone prints the version; with a command, -v asks for CSV.
  if (options.version || (options.csv && !command)) return out(VERSION);
  if (!command || options.help) return out(USAGE);
  if (options.json && options.csv) throw new CliError("--json and -v/--csv ask for two different outputs: choose one", 2);
  const json = options.json === true;
  const asCsv = options.csv === true;
  const quiet = options.quiet === true;
  const config = loadConfig(quiet ? () => {} : warn);
  const url = options.url ?? (process.env.QUILTBOARD_URL || undefined) ?? config.url ?? "http://localhost:3000";

  if (command === "config") return configCommand(rest, options, config, out);
  if (command === "login") {
    const email = options.email ?? (await readLine("email: ", { echo: true }));
    const password = await readLine("password: ");
    if (!email || !password) throw new CliError("login needs an email and a password (from the terminal, or two lines on stdin)");
    const client = new Client(url, null);
    const token = await client.request<{ token: string }>("POST", "/api/v1/tokens", {
      json: { name: `quiltboard CLI on ${process.env.HOSTNAME ?? "this machine"}` },
      basic: [email, password],
    });
    const file = saveConfig({ ...config, url, token: token.token });
    return out(json ? JSON.stringify({ url, config: file }) : `signed in to ${url} as ${email}; the token is stored in ${file}`);
  }

  const client = new Client(url, options.token ?? (process.env.QUILTBOARD_TOKEN || undefined) ?? config.token ?? null);
  if (command === "list") {
    // Kaggle's `competitions list -s TEXT --page N`, with the filters of the competitions page (docs/api.md).
    if (options.status !== undefined && !["open", "upcoming", "closed"].includes(options.status))
      throw new CliError(`--status must be open, upcoming or closed (not ${JSON.stringify(options.status)})`, 2);
    const page = options.page ?? "1";
    if (!/^[1-9]\d{0,5}$/.test(page)) throw new CliError(`--page must be a whole number from 1 (not ${JSON.stringify(page)})`, 2);
    const query = new URLSearchParams({ page });
    if (options.search) query.set("q", options.search);
    if (options.status) query.set("status", options.status);
    if (options.mine) query.set("mine", "true");
    const list = await client.request<{
      competitions: { slug: string; title: string; status: string; metric: string; endsAt: string; teams: number }[];
      total: number;
      pageSize: number;
    }>("GET", `/api/v1/competitions?${query}`);
    const { competitions } = list;
    if (json) return out(JSON.stringify(list));
    if (asCsv) return out(csv([["slug", "title", "status", "metric", "ends_at", "teams"], ...competitions.map((c) => [c.slug, c.title, c.status, c.metric, c.endsAt, c.teams])]));
    const filtered = query.size > 1;
    if (competitions.length === 0)
      return out(
        list.total > 0
          ? `no page ${page}: ${list.total === 1 ? "1 competition" : `${list.total} competitions`} ${filtered ? (list.total === 1 ? "matches" : "match") : "in all"}`
          : filtered
            ? "no competitions match"
            : "no competitions yet",
      );
    const again = [options.search ? ` -s ${JSON.stringify(options.search)}` : "", options.status ? ` --status ${options.status}` : "", options.mine ? " --mine" : ""].join("");
    const more =
      list.total > Number(page) * list.pageSize
        ? `\npage ${page} of ${Math.ceil(list.total / list.pageSize)} (${list.total} competitions): quiltboard list${again} --page ${Number(page) + 1}`
        : "";
    return out(
      table([
        ["slug", "title", "status", "metric", "deadline (UTC)", "teams"],
        ...competitions.map((c) => [c.slug, c.title, c.status, c.metric, c.endsAt.slice(0, 16).replace("T", " "), c.teams]),
      ]) + more,
    );
  }
  if (command === "push" && rest.length === 2) {
    const pushed = await pushFile(client, rest[0], rest[1], json || quiet ? () => {} : warn);
    return out(json ? JSON.stringify(pushed) : `${pushed.filename}: ${pushed.size} bytes, SHA-256 ${pushed.sha256}${pushed.resumed ? " (resumed)" : ""}`);
  }
  if (command === "push" || command === "create") {
    if (rest.length < 1) throw new CliError(`usage: quiltboard ${command} DIR`, 2);
    const steps = await pushBundle(client, rest[0], json || quiet ? () => {} : out);
    if (json) out(JSON.stringify(steps));
    return;
  }
  if (!ON_A_COMPETITION.has(command)) throw new CliError(`unknown command "${command}"; see quiltboard --help`, 2);

  // The competition: -c SLUG (Kaggle's older form), the first argument, or the default one.
  const slug = options.competition ?? rest.shift() ?? (process.env.QUILTBOARD_COMPETITION || undefined) ?? config.competition;
  const usage = (what: string) =>
    new CliError(`usage: quiltboard ${command} SLUG${what ? ` ${what}` : ""}${slug === undefined ? " (or name a default: quiltboard config set -n competition -v SLUG)" : ""}`, 2);
  if (slug === undefined) throw usage(command === "submit" ? "-f FILE [-m TEXT]" : "");
  const base = `/api/v1/competitions/${encodeURIComponent(slug)}`;
  // Scores as every surface shows them (lib/metrics/display.ts): to the decimals the API gives with
  // each, those its ± supports (the bound the mechanism proves for it, docs/mechanism.md §2.8).
  const score = (x: number | null, decimals: number) => (x === null ? "—" : x.toFixed(decimals));
  const plusMinus = (bound: number | null, decimals: number) => (bound === null ? "" : `± ${bound.toFixed(decimals)}`);
  const boundCell = (bound: number | null, decimals: number) => (bound === null ? null : bound.toFixed(decimals));
  type MySubmission = Answer & { by: string; description: string | null; filename: string | null; selected: boolean; privateScore?: number };
  const mySubmissions = () => client.request<{ submissions: MySubmission[]; final: string[] }>("GET", `${base}/submissions`);
  /** A submission's id as `submissions` prints it (its first characters) or whole. */
  const submissionId = async (given: string) => {
    if (isUuid(given)) return given;
    const matching = (await mySubmissions()).submissions.filter((s) => s.id.startsWith(given.toLowerCase()));
    if (matching.length === 1) return matching[0].id;
    throw new CliError(
      matching.length
        ? `${given} is the start of ${matching.length} of your submissions' ids: give more of it`
        : `none of your team's submissions has an id starting with ${given}`,
    );
  };
  const into = (fallback: string) => (options.wp ? "." : (options.path ?? fallback));

  switch (command) {
    case "submit": {
      const file = options.file ?? rest[0];
      if (!file) throw usage("-f FILE [-m TEXT]");
      const { body } = fileBody(file, !quiet);
      const query = new URLSearchParams({ filename: path.basename(file) });
      if (options.message) query.set("description", options.message);
      // The file's SHA-256 is the Idempotency-Key (as the Python client's): the same file again is
      // answered with its first answer and spends nothing (after the close, late ones are recorded each time).
      const key = await sha256Of(file);
      const response = await client.fetch("POST", `${base}/submissions?${query}`, { body, contentType: "text/csv", headers: { "idempotency-key": key } });
      const result = (await response.json()) as Answer;
      const replayed = response.headers.get("idempotent-replayed") === "true";
      const team = await client.request<{ limits: Limits }>("GET", `${base}/team`).catch(() => null);
      if (json) return out(JSON.stringify({ ...result, replayed, limits: team?.limits ?? null }));
      // The team always sees its public score: as the answer when nothing was checked, beside a holdout answer otherwise.
      const { kind, score: answer, publicScore, bound, decimals } = result.answer;
      out(`${scoreText(answer ?? publicScore, bound, decimals)}  ${KIND[kind] ?? kind}${kind === "holdout" ? `; public score ${score(publicScore, decimals)}` : ""}`);
      if (replayed) out(`the same file as submission ${result.id.slice(0, 8)} (${result.createdAt.slice(0, 19).replace("T", " ")} UTC): its answer again, nothing spent`);
      out(`budget ${result.budget.remaining} of ${result.budget.initial} left${team ? `; ${limitsLine(team.limits)}` : ""}`);
      return;
    }
    case "submissions": {
      const data = await mySubmissions();
      if (json) return out(JSON.stringify(data));
      // Once the competition has closed, each submission's private (holdout) score too.
      const closed = data.submissions.some((s) => s.privateScore !== undefined);
      if (asCsv) {
        const header = [
          "id",
          "created_at",
          "kind",
          "answer",
          "bound",
          "public_score",
          ...(closed ? ["private_score"] : []),
          "budget_remaining",
          "budget_initial",
          "final",
          "filename",
          "description",
        ];
        const rows = data.submissions.map((s) => [
          s.id,
          s.createdAt,
          s.answer.kind,
          s.answer.score === null ? null : score(s.answer.score, s.answer.decimals),
          boundCell(s.answer.bound, s.answer.decimals),
          score(s.answer.publicScore, s.answer.decimals),
          ...(closed ? [s.privateScore === undefined ? null : score(s.privateScore, s.answer.decimals)] : []),
          s.budget.remaining,
          s.budget.initial,
          data.final.includes(s.id) ? "true" : "false",
          s.filename,
          s.description,
        ]);
        return out(csv([header, ...rows]));
      }
      if (data.submissions.length === 0) return out("no submissions yet");
      const rows = data.submissions.map((s) => [
        s.createdAt.slice(0, 19).replace("T", " "),
        s.id.slice(0, 8),
        s.answer.kind,
        score(s.answer.score, s.answer.decimals),
        plusMinus(s.answer.bound, s.answer.decimals),
        score(s.answer.publicScore, s.answer.decimals),
        ...(closed ? [score(s.privateScore ?? null, s.answer.decimals)] : []),
        `${s.budget.remaining}/${s.budget.initial}`,
        data.final.includes(s.id) ? "final" : "",
        s.filename ?? "",
        s.description ?? "",
      ]);
      return out(table([["time (UTC)", "id", "kind", "answer", "±", "public", ...(closed ? ["private"] : []), "budget", "", "file", "note"], ...rows]));
    }
    case "leaderboard": {
      const details = await client.request<{ status: string }>("GET", base);
      const closed = details.status === "closed";
      // Kaggle's --download: the whole board as a CSV file (the final standings' once closed); --show (the default) prints it.
      if (options.download) {
        const { bytes: data, filename } = await client.download(closed ? `${base}/final?format=csv` : `${base}/leaderboard?format=csv`);
        const dir = into(".");
        mkdirSync(dir, { recursive: true });
        const target = path.join(dir, filename ?? `${slug}-leaderboard.csv`);
        writeWhole(target, data);
        if (json) out(JSON.stringify({ file: target, bytes: data.length }));
        else if (!quiet) out(`${target} (${bytes(data.length)})`);
        if (!options.show) return;
      }
      if (closed) {
        const final = await client.request<{
          entries: { rank: number; team: string; teamId: string; score: number; bound: number | null; decimals: number; tiedWith: string[]; liveRank: number | null }[];
        }>("GET", `${base}/final`);
        if (json) return out(JSON.stringify(final));
        const names = new Map(final.entries.map((e) => [e.teamId, e.team]));
        if (asCsv)
          return out(
            csv([
              ["rank", "team", "score", "bound", "tied_with", "live_rank"],
              ...final.entries.map((e) => [
                e.rank,
                e.team,
                score(e.score, e.decimals),
                boundCell(e.bound, e.decimals),
                e.tiedWith.map((id) => names.get(id) ?? id).join("; "),
                e.liveRank,
              ]),
            ]),
          );
        // ≈: tied with another team, their intervals overlap (no proof tells their order apart)
        return out(
          table([
            ["#", "team", "final score", "±", "live rank"],
            ...final.entries.map((e) => [`${e.tiedWith.length ? "≈" : ""}${e.rank}`, e.team, score(e.score, e.decimals), plusMinus(e.bound, e.decimals), e.liveRank ?? "—"]),
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
          decimals: number;
          submissions: number;
          budget: { remaining: number; initial: number };
        }[];
      }>("GET", `${base}/leaderboard?page=${encodeURIComponent(page)}`);
      if (json) return out(JSON.stringify(board));
      if (asCsv)
        return out(
          csv([
            ["rank", "team", "score", "bound", "kind", "submissions", "budget_remaining", "budget_initial"],
            ...board.entries.map((e) => [
              e.rank,
              e.team,
              e.score === null ? null : score(e.score, e.decimals),
              boundCell(e.bound, e.decimals),
              e.kind,
              e.submissions,
              e.budget.remaining,
              e.budget.initial,
            ]),
          ]),
        );
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
            score(e.score, e.decimals),
            boundCell(e.bound, e.decimals) ?? "",
            e.kind ?? "",
            e.submissions,
            `${e.budget.remaining}/${e.budget.initial}`,
          ]),
        ]) + more,
      );
    }
    case "limits": {
      const team = await client.request<{ name: string; limits: Limits; budget: { remaining: number; initial: number } }>("GET", `${base}/team`);
      if (json) return out(JSON.stringify({ ...team.limits, budget: team.budget }));
      return out(`${limitsLine(team.limits)}; budget ${team.budget.remaining} of ${team.budget.initial} left (team ${team.name})`);
    }
    case "verify": {
      const verification = await verifyCompetition(client, slug);
      if (json) out(JSON.stringify(verification));
      else out(verificationLines(verification).join("\n"));
      if (!verification.solution || !verification.secret || verification.answers.mismatches > 0) throw new CliError("the competition does not verify", 1);
      return;
    }
    case "files": {
      const { attachments } = await client.request<{ attachments: Attachment[] }>("GET", `${base}/attachments`);
      if (json) return out(JSON.stringify({ attachments }));
      if (asCsv) return out(csv([["name", "size", "sha256"], ...attachments.map((a) => [a.filename, a.size, a.sha256])]));
      if (attachments.length === 0) return out("this competition has no data files");
      return out(table([["name", "size (bytes)"], ...attachments.map((a) => [a.filename, a.size])]));
    }
    case "download": {
      if (options.submission) {
        const id = await submissionId(options.submission);
        const dir = into(".");
        mkdirSync(dir, { recursive: true });
        const { bytes: data, filename } = await client.download(`${base}/submissions/${id}/file`);
        const target = path.join(dir, filename ?? `${id}.csv`);
        writeWhole(target, data);
        if (json) out(JSON.stringify({ file: target, bytes: data.length }));
        else if (!quiet) out(`${target} (${bytes(data.length)})`);
        return;
      }
      const { attachments } = await client.request<{ attachments: Attachment[] }>("GET", `${base}/attachments`);
      const wanted = options.file ? attachments.filter((a) => a.filename === options.file) : attachments;
      if (options.file && wanted.length === 0) throw new CliError(`no data file called ${options.file}; quiltboard files ${slug} lists them`);
      if (wanted.length === 0) return quiet || json ? out(json ? "[]" : "") : out("this competition has no data files");
      const dir = into(slug);
      mkdirSync(dir, { recursive: true });
      const done = [];
      for (const a of wanted) {
        const target = path.join(dir, path.basename(a.filename));
        // A file already there with the listed SHA-256 is not fetched again (Kaggle's "up to date"), unless -o.
        if (!options.force && existsSync(target) && statSync(target).isFile() && (await sha256Of(target)) === a.sha256) {
          done.push({ file: target, bytes: a.size, skipped: true });
          if (!json && !quiet) out(`${target}: already there (the same SHA-256), skipped; -o downloads it again`);
          continue;
        }
        // Through NAME.part, resumed where an earlier run was cut off, renamed only once its SHA-256 is the listed one.
        const resumedFrom = await downloadResumable(client, `${base}/attachments/${a.id}`, target, a, !quiet && !json);
        done.push({ file: target, bytes: a.size, skipped: false, resumedFrom });
        if (!json && !quiet) out(`${target} (${bytes(a.size)}${resumedFrom ? `, resumed after ${bytes(resumedFrom)}` : ""})`);
      }
      if (json) out(JSON.stringify(done));
      return;
    }
  }
}

/** The command line's entry (the bundle's last line): output on stdout, one error line on stderr, the exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    await run(
      argv,
      (line) => process.stdout.write(`${line}\n`),
      (line) => process.stderr.write(`quiltboard: ${line}\n`),
    );
  } catch (error) {
    const message = error instanceof CliError ? error.message : `unexpected error: ${(error as Error).message}`;
    process.stderr.write(`quiltboard: ${message.replace(/\s*\n\s*/g, "; ")}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  }
}
