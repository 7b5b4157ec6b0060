import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { CONFIGURATION, ConfigurationError, environmentProblems, parseEnvironment, type VariableName } from "@/lib/server/platform/env";
import { LIMIT_VARIABLES } from "@/lib/server/platform/rate-limit";

// The configuration's schema (lib/server/platform/env.ts): each variable's type, limits and
// default, one message per malformed variable; the README's configuration table and SECURITY.md's
// abuse limits held to it; and the lint rule that keeps process.env out of lib/ and app/.

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("the configuration's schema", () => {
  it("gives every variable its default when nothing is set, NEXTAUTH_URL following PORT", () => {
    const values = parseEnvironment({});
    expect(values).toMatchObject({
      PORT: 3000,
      NEXTAUTH_URL: "http://localhost:3000",
      TRUST_PROXY: 0,
      QUILTBOARD_COMPUTE_SECONDS: 20,
      QUILTBOARD_CLOSE_SECONDS: 30,
      QUILTBOARD_UPLOADS: 4,
      QUILTBOARD_UPLOADS_PER_USER: 2,
      QUILTBOARD_BODY_MIN_RATE: 500,
      QUILTBOARD_UPLOAD_MIN_RATE: 65_536,
      QUILTBOARD_EXPORTS: 16,
      QUILTBOARD_SOLUTION_CACHE_MB: 512,
      QUILTBOARD_LIMIT_SIGN_UP_IP: { limit: 20, windowSeconds: 3600 },
      QUILTBOARD_LIMIT_SUBMISSIONS: { limit: 600, windowSeconds: 60 },
      MAIL_FROM: "Quiltboard <no-reply@quiltboard.invalid>",
      LOG_LEVEL: "info",
    });
    for (const name of ["DATABASE_URL", "NEXTAUTH_SECRET", "SMTP_URL", "METRICS_TOKEN", "QUILTBOARD_DEMO"] as const) expect(values[name]).toBeUndefined();
    expect(parseEnvironment({ PORT: "8080" }).NEXTAUTH_URL).toBe("http://localhost:8080");
    expect(parseEnvironment({ PORT: "8080", NEXTAUTH_URL: "https://q.example.org" }).NEXTAUTH_URL).toBe("https://q.example.org");
  });

  it("reads each variable as its type; an empty or blank value is unset (a compose file's X: ${X:-})", () => {
    const values = parseEnvironment({
      DATABASE_URL: "postgresql://u:p@db:5432/q",
      QUILTBOARD_CLOSE_SECONDS: " 2 ",
      QUILTBOARD_LIMIT_SIGN_IN: "0/1",
      QUILTBOARD_DEMO: "0",
      SMTP_URL: "smtps://k:s@smtp.example.com:465",
      MAIL_FROM: "ops@example.org",
      METRICS_TOKEN: "",
      LOG_LEVEL: "   ",
    });
    expect(values).toMatchObject({
      DATABASE_URL: "postgresql://u:p@db:5432/q",
      QUILTBOARD_CLOSE_SECONDS: 2,
      QUILTBOARD_LIMIT_SIGN_IN: { limit: 0, windowSeconds: 1 },
      QUILTBOARD_DEMO: false,
      SMTP_URL: "smtps://k:s@smtp.example.com:465",
      MAIL_FROM: "ops@example.org",
      METRICS_TOKEN: undefined,
      LOG_LEVEL: "info",
    });
  });

  it.each([
    ["QUILTBOARD_CLOSE_SECONDS", "abc", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_CLOSE_SECONDS", "0", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_CLOSE_SECONDS", "3601", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_CLOSE_SECONDS", "1.5", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_COMPUTE_SECONDS", "abc", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_COMPUTE_SECONDS", "-1", "a whole number of seconds from 1 to 3,600"],
    ["QUILTBOARD_UPLOADS", "0", "a whole number of uploads from 1 to 1,024"],
    ["QUILTBOARD_UPLOADS_PER_USER", "1e3", "a whole number of uploads from 1 to 1,024"],
    ["QUILTBOARD_BODY_MIN_RATE", "fast", "a whole number of bytes a second from 1 to 100,000,000"],
    ["QUILTBOARD_UPLOAD_MIN_RATE", "1000", "a whole number of bytes a second from 1,024 to 100,000,000"],
    ["QUILTBOARD_EXPORTS", "0", "a whole number of exports from 1 to 1,024"],
    ["QUILTBOARD_SOLUTION_CACHE_MB", "8", "a whole number of MB from 16 to 1,048,576"],
    ["PORT", "65536", "a port number from 1 to 65,535"],
    ["TRUST_PROXY", "yes", "a whole number of proxies from 0 to 32"],
    ["QUILTBOARD_LIMIT_SIGN_UP_IP", "20", "count/seconds, e.g. 20/3600: at most 1,000,000,000 attempts in 1 to 31,536,000 s"],
    ["QUILTBOARD_LIMIT_SIGN_UP_IP", "20/0", "count/seconds, e.g. 20/3600: at most 1,000,000,000 attempts in 1 to 31,536,000 s"],
    ["QUILTBOARD_DEMO", "yes", "1 (create the demo on an empty database) or 0 (never)"],
    ["DATABASE_URL", "mysql://db/q", "a postgresql:// or postgres:// URL, e.g. postgresql://user:password@host:5432/quiltboard"],
    ["NEXTAUTH_URL", "quiltboard.example.org", "a http:// or https:// URL, e.g. https://quiltboard.example.org"],
    ["NEXTAUTH_SECRET", "short", "at least 32 characters (32 random bytes, e.g. openssl rand -base64 32)"],
    ["SMTP_URL", "mail.example.org:25", "a smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465"],
    ["MAIL_FROM", "Quiltboard", 'an address, alone or as "Name <address>"'],
    ["LOG_LEVEL", "verbose", "one of trace, debug, info, warn, error, fatal, silent"],
  ] as [VariableName, string, string][])("%s=%s is refused, naming the variable and what it expects", (name, value, expects) => {
    const secret = ["DATABASE_URL", "NEXTAUTH_URL", "NEXTAUTH_SECRET", "SMTP_URL"].includes(name);
    const message = `${name}=${secret ? "<hidden>" : JSON.stringify(value)}: expected ${expects}`;
    expect(environmentProblems({ [name]: value })).toEqual([message]);
    expect(() => parseEnvironment({ [name]: value })).toThrow(new ConfigurationError([message]));
  });

  it("never repeats a value that may hold a secret", () => {
    const secrets = { DATABASE_URL: "mysql://root:hunter2-db@db/q", NEXTAUTH_SECRET: "hunter2-short", SMTP_URL: "http://user:hunter2-smtp@mail.example.org" };
    const problems = environmentProblems(secrets);
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).not.toContain("hunter2");
  });

  it("lists every problem at once, the missing required variables first", () => {
    expect(environmentProblems({ NEXTAUTH_SECRET: " ", QUILTBOARD_UPLOADS: "many", LOG_LEVEL: "loud" }, ["DATABASE_URL", "NEXTAUTH_SECRET"])).toEqual([
      "DATABASE_URL is not set: point it at PostgreSQL 15 or newer, e.g. postgresql://user:password@host:5432/quiltboard",
      "NEXTAUTH_SECRET is not set: it signs the session cookies; use 32 random bytes, e.g. openssl rand -base64 32",
      'QUILTBOARD_UPLOADS="many": expected a whole number of uploads from 1 to 1,024',
      'LOG_LEVEL="loud": expected one of trace, debug, info, warn, error, fatal, silent',
    ]);
  });

  it("has each abuse limit of lib/server/platform/rate-limit.ts, and no variable no limit reads", () => {
    const schema = CONFIGURATION.map((v) => v.name).filter((name) => name.startsWith("QUILTBOARD_LIMIT_"));
    expect([...LIMIT_VARIABLES].sort()).toEqual([...schema].sort());
  });
});

/** The cells of a Markdown table's rows (the header and the divider skipped), `\|` kept as a pipe. */
function tableRows(table: string): string[][] {
  return table
    .trim()
    .split("\n")
    .slice(2)
    .map((row) =>
      row
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replaceAll("\\|", "|")),
    );
}

/** The tables of `section` (a heading's text) in `markdown`, in order. */
function tablesOf(markdown: string, section: string): string[] {
  const start = markdown.indexOf(`\n## ${section}\n`);
  expect(start, `a section "${section}"`).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf("\n## ", start + 1);
  return [...markdown.slice(start, end < 0 ? undefined : end).matchAll(/(?:^\|.*\n)+/gm)].map((m) => m[0]);
}

/** "20 per hour", "10 per 10 minutes" as a count and a window in seconds. */
function perWindow(text: string): { limit: number; windowSeconds: number } {
  const match = /^([\d,]+) per (\d+ )?(second|minute|hour|day)s?$/.exec(text);
  expect(match, `"${text}" reads as "N per [M] unit"`).not.toBeNull();
  const unit = { second: 1, minute: 60, hour: 3600, day: 86_400 }[match![3] as "second"];
  return { limit: Number(match![1].replaceAll(",", "")), windowSeconds: Number(match![2] ?? 1) * unit };
}

describe("the README's configuration table", () => {
  const [app, tooling] = tablesOf(read("README.md"), "Configuration").map(tableRows);
  const rows = new Map(app.map(([name, fallback]) => [name.replaceAll("`", ""), fallback]));

  it("lists every variable of the schema, and no other, with the same default", () => {
    const limits = CONFIGURATION.filter((v) => v.name.startsWith("QUILTBOARD_LIMIT_"));
    const expected = new Map(CONFIGURATION.filter((v) => !limits.includes(v)).map((v) => [v.name as string, v.default]));
    // The abuse limits are one row, QUILTBOARD_LIMIT_<NAME>, whose default is SECURITY.md's table (below).
    expected.set("QUILTBOARD_LIMIT_<NAME>", limits[0].default);
    expect(new Map([...rows].sort())).toEqual(new Map([...expected].sort()));
  });

  it("has each abuse limit in SECURITY.md, with the schema's default", () => {
    const [table] = tablesOf(read("SECURITY.md"), "Abuse limits");
    const documented = Object.fromEntries(tableRows(table).map(([name, fallback]) => [`QUILTBOARD_LIMIT_${name.replaceAll("`", "")}`, perWindow(fallback)]));
    const defaults = parseEnvironment({});
    const schema = Object.fromEntries(CONFIGURATION.filter((v) => v.name.startsWith("QUILTBOARD_LIMIT_")).map((v) => [v.name, defaults[v.name]]));
    expect(documented).toEqual(schema);
  });

  it("lists the two commands' own variables apart, each read by scripts/ and none in the schema", () => {
    const scripts = ["scripts/start.ts", "scripts/test.ts"].map(read).join("\n");
    for (const [cell] of tooling) {
      const name = cell.replaceAll("`", "");
      expect(CONFIGURATION.map((v) => v.name as string)).not.toContain(name);
      expect(scripts).toContain(`process.env.${name}`);
    }
  });
});

describe("the lint rule", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const problems = async (file: string, code: string) => (await eslint.lintText(code, { filePath: path.join(ROOT, file) }))[0].messages.map((m) => m.ruleId);

  it("refuses process.env in lib/ and app/, but for the schema itself; scripts/ and test/ read their own", async () => {
    const code = 'import { env as raw } from "node:process";\nexport const a = process.env.PORT;\nconst { env } = process;\nexport const b = [env, raw];\n';
    expect(await problems("lib/server/boards/example.ts", code)).toEqual(["no-restricted-syntax", "no-restricted-properties", "no-restricted-properties"]);
    expect(await problems("app/example/page.tsx", code)).toEqual(["no-restricted-syntax", "no-restricted-properties", "no-restricted-properties"]);
    expect(await problems("lib/server/platform/env.ts", code)).toEqual([]);
    expect(await problems("scripts/example.ts", code)).toEqual([]);
  });

  it("refuses both process.env and z.string() in lib/validation (a later block's rule replaces an earlier one's)", async () => {
    const code = 'import { z } from "zod";\nexport const a = process.env.PORT;\nexport const s = z.string();\n';
    const messages = async (file: string) => (await eslint.lintText(code, { filePath: path.join(ROOT, file) }))[0].messages.map((m) => m.message);
    expect(await messages("lib/validation/example.ts")).toEqual([
      "'process.env' is restricted from being used. read configuration through env() of lib/server/platform/env.ts, where each variable is declared and validated",
      "'z.string' is restricted from being used. use text() from lib/validation/text.ts (it refuses NUL)",
    ]);
    expect(await messages("lib/validation/text.ts")).toEqual([
      "'process.env' is restricted from being used. read configuration through env() of lib/server/platform/env.ts, where each variable is declared and validated",
    ]);
  });
});
