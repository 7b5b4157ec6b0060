// The CLI's side of the REST API: requests with the token, one-line errors, the stored login.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** An error the user can act on: printed as one line, with its exit code (2: the command line was wrong). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * The credentials file, as Kaggle's kaggle.json: `~/.quiltboard/quiltboard.json` (the directory
 * QUILTBOARD_CONFIG_DIR names instead, when set), readable by its user only. It holds the server's
 * URL, the API token and a default competition; QUILTBOARD_URL, QUILTBOARD_TOKEN and
 * QUILTBOARD_COMPETITION override what it holds, and options override both.
 */
export const CONFIG_KEYS = ["url", "token", "competition"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type Config = Partial<Record<ConfigKey, string>>;

export function configFile(): string {
  return path.join(process.env.QUILTBOARD_CONFIG_DIR || path.join(homedir(), ".quiltboard"), "quiltboard.json");
}

/** The credentials file's settings ({} without one); `warn` hears when others may read it. */
export function loadConfig(warn: (line: string) => void): Config {
  const file = configFile();
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new CliError(`${file} is not valid JSON; fix it, or delete it and run quiltboard login again`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new CliError(`${file} must hold a JSON object ({"url": …, "token": …, "competition": …})`);
  const config: Config = {};
  for (const key of CONFIG_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new CliError(`${file}: "${key}" must be a string`);
    config[key] = value;
  }
  if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0) warn(`warning: others can read ${file}, which holds your token; run chmod 600 ${file}`);
  return config;
}

/** Stores the settings readable by the user only (mode 0600 in a directory of mode 0700); returns the file's path. */
export function saveConfig(config: Config): string {
  const file = configFile();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

type ApiErrorBody = { error?: { code?: string; message?: string; details?: unknown } };

/** The API's error as one line: its message, and the first problems it lists (with their lines). */
function describe(status: number, body: ApiErrorBody): string {
  const message = body.error?.message ?? `the server answered ${status}`;
  const details = Array.isArray(body.error?.details) ? (body.error!.details as { line?: number; path?: string; message?: string }[]) : [];
  const listed = details
    .slice(0, 3)
    .map((d) => (d.line ? `line ${d.line}: ${d.message}` : d.path ? `${d.path}: ${d.message}` : d.message))
    .filter((d) => d && !message.includes(d));
  return [message, ...listed].join("; ") + (details.length > 3 ? ` (and ${details.length - 3} more)` : "");
}

type RequestOptions = { json?: unknown; body?: BodyInit; contentType?: string; basic?: [string, string]; headers?: Record<string, string> };

export class Client {
  constructor(
    readonly url: string,
    private readonly token: string | null,
  ) {}

  /** A request; the response when it succeeded, else a CliError with the API's message. */
  async fetch(method: string, pathname: string, init: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.basic) headers.authorization = `Basic ${Buffer.from(init.basic.join(":")).toString("base64")}`;
    else if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.contentType) headers["content-type"] = init.contentType;
    let response: Response;
    try {
      response = await fetch(new URL(pathname, this.url), { method, headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
    } catch (error) {
      throw new CliError(`cannot reach ${this.url} (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}); set QUILTBOARD_URL or --url`);
    }
    if (response.status === 401)
      throw new CliError(
        this.token || init.basic ? "the server refused the credentials (401): run quiltboard login again" : "not signed in: run quiltboard login, or set QUILTBOARD_TOKEN",
      );
    if (!response.ok) throw new CliError(describe(response.status, (await response.json().catch(() => ({}))) as ApiErrorBody));
    return response;
  }

  /** A JSON request; the parsed answer, or a CliError with the API's message. */
  async request<T>(method: string, pathname: string, init: RequestOptions = {}): Promise<T> {
    return (await (await this.fetch(method, pathname, init)).json()) as T;
  }

  /** A file: its bytes and the name the server gave it. */
  async download(pathname: string): Promise<{ bytes: Buffer; filename: string | null }> {
    const response = await this.fetch("GET", pathname);
    const disposition = response.headers.get("content-disposition") ?? "";
    const filename = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1] ?? /filename="([^"]+)"/i.exec(disposition)?.[1] ?? null;
    return { bytes: Buffer.from(await response.arrayBuffer()), filename: filename && path.basename(decodeURIComponent(filename)) };
  }
}
