// The one REST client of the end-to-end tests, the benchmarks and the experiments: raw requests,
// a JSON client, users with API tokens, competitions published through the API, and synthetic
// solution and predictions files.
import { randomBytes } from "node:crypto";
import net from "node:net";
import type { Leaderboard } from "../../lib/responses";

/** An answer as a check sees it: its status, content type, parsed body and `Allow` header. */
export type Answered = { status: number; contentType: string | null; body?: unknown; allow?: string | null };
type AnswerCheck = (url: URL, method: string, answer: Answered) => Promise<void>;
let rawAnswerCheck: AnswerCheck | null = null;

/**
 * Holds every answer `openRequest` reads from now on to `check` (the e2e tests' OpenAPI contract,
 * test/support/contract.ts, which checks what `fetch` receives by itself).
 */
export function checkRawAnswersWith(check: AnswerCheck): void {
  rawAnswerCheck = check;
}

export type ApiInit = { method?: string; json?: unknown; csv?: string; headers?: Record<string, string> };

/** One request to the API at `base`, answered as it came (status, headers, body unread). */
export function request(base: string, path: string, init: ApiInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: init.method ?? (init.json !== undefined || init.csv !== undefined ? "POST" : "GET"),
    headers: {
      ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
      ...(init.csv !== undefined ? { "content-type": "text/csv" } : {}),
      ...init.headers,
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.csv,
  });
}

export type Client = (path: string, init?: ApiInit) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each endpoint's own JSON

/**
 * A JSON client for the API at `base` with `auth` headers: the body of a successful answer, an
 * Error naming the status and body otherwise. A request that carries an Idempotency-Key, or a GET,
 * is retried (up to 3 times) when the connection drops before an answer: the key makes the retry
 * return the first result instead of a second answer. (A client busy computing for longer than the
 * server's keep-alive timeout otherwise sends its next request on a socket the server has closed.)
 * A 429 that names a wait is retried after it.
 */
export function client(base: string, auth: Record<string, string> = {}): Client {
  return async (path, init = {}) => {
    const method = init.method ?? (init.json !== undefined || init.csv !== undefined ? "POST" : "GET");
    const retryable = method === "GET" || Object.keys(init.headers ?? {}).some((h) => h.toLowerCase() === "idempotency-key");
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await request(base, path, { ...init, method, headers: { ...auth, ...init.headers } });
        const body = await response.json();
        // A burst limit (not the daily cap) says when to come back: a polite client waits.
        const wait = response.status === 429 ? /try again in (\d+) s/.exec(body.error?.message ?? "") : null;
        if (wait && attempt < 5) {
          await new Promise((r) => setTimeout(r, (Number(wait[1]) + 1) * 1000));
          continue;
        }
        if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(body)}`);
        return body;
      } catch (error) {
        if (!(retryable && attempt < 3 && error instanceof TypeError && /fetch failed/.test(error.message))) throw error;
      }
    }
  };
}

/**
 * The whole live board of a competition: its first page's answer with the entries of every page,
 * read by following `next` (GET …/leaderboard answers a page at a time).
 */
export async function wholeLeaderboard(call: Client, slug: string): Promise<Leaderboard> {
  const first: Leaderboard = await call(`/api/v1/competitions/${slug}/leaderboard?pageSize=1000`);
  for (let next = first.next; next !== null;) {
    const page: Leaderboard = await call(next);
    first.entries.push(...page.entries);
    next = page.next;
  }
  return { ...first, next: null };
}

/** HTTP Basic credentials (POST /api/v1/tokens takes them). */
export function basic(email: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` };
}

export type ApiUser = { email: string; password: string; auth: { authorization: string }; call: Client };

/** Signs a new user up through the API and makes them an API token. */
export async function newApiUser(base: string, name = "user"): Promise<ApiUser> {
  const email = `${name}-${randomBytes(6).toString("hex")}@example.com`;
  const password = "a long enough password";
  await client(base)("/api/v1/users", { json: { email, password, name } });
  const { token } = await client(base, basic(email, password))("/api/v1/tokens", { json: { name: "test" } });
  const auth = { authorization: `Bearer ${token}` };
  return { email, password, auth, call: client(base, auth) };
}

/** Whoever organizes: their Authorization header and a client that sends it. */
export type Organizer = Pick<ApiUser, "auth" | "call">;

/** A new user who creates a team in the competition (accepting its rules): the user and the team. */
export async function newCompetitor(
  base: string,
  slug: string,
  team = `Team ${randomBytes(3).toString("hex")}`,
): Promise<ApiUser & { team: { id: string; name: string; inviteCode: string } }> {
  const user = await newApiUser(base, "player");
  return { ...user, team: await user.call(`/api/v1/competitions/${slug}/teams`, { json: { name: team, acceptRules: true } }) };
}

export type PublishOptions = {
  /** the organizer (a new user unless given) */
  organizer?: Organizer;
  /** fields of POST /api/v1/competitions beyond slug, title, metric and endsAt (these can be overridden too) */
  settings?: Record<string, unknown>;
  /** the solution CSV (the caller's: the demo's, or syntheticSolution) */
  solution: string;
  /** PUT …/correlation's model, when not independent rows */
  correlation?: Record<string, unknown>;
  /** PUT …/mechanism's body (default practical σ = 0.01, T = 0.04, B₀ = 5) */
  mechanism?: Record<string, unknown>;
  /** instead of `mechanism`: B₀ and m with the σ and T the planner recommends for honest teams on this solution (the manage page's "use recommended") */
  recommended?: { budget: number; maxQueries: number };
};

/** An organizer creates, configures and publishes a competition through the API; its slug and organizer. */
export async function publishOverApi(base: string, options: PublishOptions): Promise<{ slug: string; organizer: Organizer }> {
  const organizer = options.organizer ?? (await newApiUser(base, "organizer"));
  const slug = (options.settings?.slug as string | undefined) ?? `t-${randomBytes(5).toString("hex")}`;
  await organizer.call("/api/v1/competitions", {
    json: { slug, title: slug, metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 10 * 86_400_000).toISOString(), ...options.settings },
  });
  await organizer.call(`/api/v1/competitions/${slug}/solution`, { method: "PUT", csv: options.solution });
  if (options.correlation) await organizer.call(`/api/v1/competitions/${slug}/correlation`, { method: "PUT", json: { model: options.correlation } });
  let mechanism = options.mechanism ?? { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 };
  if (options.recommended) {
    const { plan } = await organizer.call(`/api/v1/competitions/${slug}/mechanism/preview`, { json: { ...mechanism, ...options.recommended } });
    mechanism = { mode: "practical", ...options.recommended, sigma: plan.honest.recommended.sigma, threshold: plan.honest.recommended.threshold };
  }
  await organizer.call(`/api/v1/competitions/${slug}/mechanism`, { method: "PUT", json: mechanism });
  // The experiments and benchmarks publish whatever their settings promise.
  await organizer.call(`/api/v1/competitions/${slug}/publish`, { json: { acknowledge: ["no_guarantee", "model_ignores_groups", "model_ignores_states"] } });
  return { slug, organizer };
}

/**
 * Signs in at `base` as a browser would, without one: next-auth's CSRF token, then its credentials
 * callback; the cookie jar of that session (a `cookie` header for later requests) and the
 * callback's answer. `ready` runs between the two (a race's start line).
 */
export async function signInWithCookies(
  base: string,
  email: string,
  password: string,
  ready: () => Promise<void> = async () => {},
): Promise<{ cookie: () => string; keep: (response: Response) => void; signedIn: boolean }> {
  const jar = new Map<string, string>();
  const keep = (r: Response) => r.headers.getSetCookie().forEach((c) => jar.set(c.split("=")[0], c.split(";")[0]));
  const cookie = () => [...jar.values()].join("; ");
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = await csrf.json();
  await ready();
  const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  await signIn.arrayBuffer();
  keep(signIn);
  return { cookie, keep, signedIn: [...jar.keys()].some((k) => k.includes("session-token")) };
}

/** `items` in an order drawn from `seed` (Fisher–Yates with a linear congruential generator): the same seed, the same order. */
export function seededShuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A solution of n rows, half public, with binary class labels "a"/"b". */
export function syntheticSolution(n: number): string {
  const lines = new Array<string>(n + 1);
  lines[0] = "id,label,split";
  for (let i = 0; i < n; i++) lines[i + 1] = `r${i},${i % 3 ? "a" : "b"},${i % 2 ? "public" : "holdout"}`;
  return lines.join("\n");
}

/** A predictions file for syntheticSolution(n): 3 rows in 4 right, deterministic per seed. */
export function syntheticPredictions(n: number, seed: number): string {
  const lines = new Array<string>(n + 1);
  lines[0] = "id,prediction";
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const right = i % 3 ? "a" : "b";
    lines[i + 1] = `r${i},${x % 4 ? right : right === "a" ? "b" : "a"}`;
  }
  return lines.join("\n");
}

export type Answer = { status: number; headers: Record<string, string>; body: { error?: { message: string; details?: unknown } }; sent: number };

/** A raw HTTP/1.1 answer: status, headers (lower case) and body, once all of it has arrived; null before. */
export function parseAnswer(raw: Buffer): Omit<Answer, "sent"> | null {
  const head = parseHead(raw);
  if (!head) return null;
  const { headers } = head;
  let rest = raw.subarray(raw.indexOf("\r\n\r\n") + 4);
  let body: Buffer;
  if (headers["transfer-encoding"] === "chunked") {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf("\r\n");
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  } else {
    const length = Number(headers["content-length"] ?? 0);
    if (rest.length < length) return null;
    body = rest.subarray(0, length);
  }
  return { status: head.status, headers, body: JSON.parse(body.toString("utf8") || "{}") };
}

/** A raw HTTP/1.1 answer's status and headers (lower case), once they have arrived; null before. */
function parseHead(raw: Buffer): { status: number; headers: Record<string, string> } | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  return {
    status: Number(statusLine.split(" ")[1]),
    headers: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()])),
  };
}

/**
 * A request over a plain TCP connection to `base` whose body the caller sends piece by piece
 * (`write`), to see what the server answers before the rest arrives: `answer(ms)` is the answer
 * once it has come, or null if none came within `ms`; `head` its status and headers as soon as they
 * have come; `received` the bytes that came back so far;
 * `sent` is how much of the body went out; `pause` stops reading the answer (a slow reader);
 * `close` drops the connection as a client that gives up would.
 */
export function openRequest(base: string, path: string, headers: Record<string, string>, method = "POST") {
  const url = new URL(path, base);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.on("error", () => {}); // writes after the server's answer fail; the answer is what counts
  let received = Buffer.alloc(0);
  let sent = 0;
  socket.on("data", (d: Buffer) => (received = Buffer.concat([received, d])));
  socket.write([`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n"));
  return {
    get sent() {
      return sent;
    },
    get received() {
      return received.length;
    },
    /** The answer's status and headers (lower case) once they have come, its body perhaps not; null before. */
    head: () => parseHead(received),
    /** Reads the answer again after `pause`. */
    resume: () => socket.resume(),
    /** The bytes received so far. */
    bytes: () => received,
    pause: () => socket.pause(),
    /** Sends part of the body; false when the connection's buffer is full (then wait for `drained`). */
    write(bytes: Buffer | string): boolean {
      sent += Buffer.byteLength(bytes);
      return socket.write(bytes);
    },
    drained: () => new Promise<void>((resolve) => socket.once("drain", resolve).once("close", resolve)),
    async answer(ms: number): Promise<Omit<Answer, "sent"> | null> {
      const deadline = Date.now() + ms;
      for (;;) {
        const answer = parseAnswer(received);
        if (answer && rawAnswerCheck)
          await rawAnswerCheck(url, method, { status: answer.status, contentType: answer.headers["content-type"] ?? null, body: answer.body, allow: answer.headers.allow });
        if (answer || Date.now() > deadline) return answer;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => socket.destroy(),
  };
}
