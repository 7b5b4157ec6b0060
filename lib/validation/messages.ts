// The words of every validation message (docs/api.md, Conventions): zod's error customization, set
// once for the process (z.config), so that a problem with a field says what the field expects in
// words and what it got, e.g. "title: expected text of 3 to 120 characters, got 5", never zod's
// own "Invalid input: expected string, received number". The field's name is the issue's path,
// which the API's error body puts in front (lib/server/platform/errors.ts) and in `details`. A
// message a schema gives itself (`{ message }`) still wins; this covers every other.
// Every module of lib/validation imports this one, so no schema parses before it is set.
import { z } from "zod";

type Issue = z.core.$ZodRawIssue;
type Schema = z.core.$ZodType;
type CheckDef = {
  check: string;
  minimum?: number | bigint | Date;
  maximum?: number | bigint | Date;
  inclusive?: boolean;
  length?: number;
  format?: string;
  value?: number | bigint | Date;
};

/** A value as a message quotes it: short text in quotes, numbers and true/false as written, else its kind. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return value.length > 40 ? `text of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "an invalid date" : value.toISOString();
  return typeof value === "object" ? "an object" : `a value of type ${typeof value}`;
}

const FORMATS: Record<string, string> = {
  email: "an email address",
  uuid: "a UUID",
  guid: "a UUID",
  datetime: "a date and time such as 2027-01-31T23:59:59Z",
  date: "a date such as 2027-01-31",
  url: "a URL",
};

function number(n: number | bigint | Date | undefined): string {
  return typeof n === "number" ? n.toLocaleString("en") : String(n);
}

/** A size range in words: "3 to 120 characters", "at most 500 characters", "at least 2 items"; "" for none. */
function sizes(checks: CheckDef[], unit: string): string {
  let min: number | undefined;
  let max: number | undefined;
  for (const c of checks) {
    if (c.check === "min_length") min = Math.max(min ?? 0, Number(c.minimum));
    if (c.check === "max_length") max = Math.min(max ?? Infinity, Number(c.maximum));
    if (c.check === "length_equals") min = max = Number(c.length);
  }
  const units = (n: number) => `${number(n)} ${n === 1 ? unit : `${unit}s`}`;
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${units(min)}` : `${number(min)} to ${units(max)}`;
  if (max !== undefined) return `at most ${units(max)}`;
  if (min !== undefined) return `at least ${units(min)}`;
  return "";
}

/** A number's range in words: " from 1 to 100", " greater than 0 and at most 1", " of at least 1", " less than 1". */
function range(checks: CheckDef[]): string {
  const low = checks.filter((c) => c.check === "greater_than").at(-1);
  const high = checks.filter((c) => c.check === "less_than").at(-1);
  if (low?.inclusive && high?.inclusive) return ` from ${number(low.value)} to ${number(high.value)}`;
  const from = low && (low.inclusive ? `of at least ${number(low.value)}` : `greater than ${number(low.value)}`);
  const to = high && (high.inclusive ? `${from ? "" : "of "}at most ${number(high.value)}` : `less than ${number(high.value)}`);
  return from || to ? ` ${[from, to].filter(Boolean).join(" and ")}` : "";
}

/** What a schema accepts, in words: "text of 3 to 120 characters", "a whole number from 1 to 100", "one of "a", "b"". */
export function expectation(schema: Schema | undefined): string {
  if (!schema) return "a valid value";
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const checks = ((def.checks as Schema[] | undefined) ?? []).map((c) => c._zod.def as unknown as CheckDef);
  switch (def.type) {
    case "string": {
      // A format named in words (email, UUID, URL…); text()'s NUL rule is a regex format too, and says nothing here.
      const format = [def.format as string | undefined, ...checks.filter((c) => c.check === "string_format").map((c) => c.format)].map((f) => FORMATS[f ?? ""]).find(Boolean);
      const size = sizes(checks, "character");
      return format ?? (size === "at least 1 character" ? "non-empty text" : size ? `text of ${size}` : "text");
    }
    case "number": {
      const whole = def.format === "safeint" || def.format === "int32" || checks.some((c) => c.check === "number_format");
      return `${whole ? "a whole number" : "a number"}${range(checks)}`;
    }
    case "bigint":
      return `a whole number${range(checks)}`;
    case "boolean":
      return "true or false";
    case "date":
      return "a date and time such as 2027-01-31T23:59:59Z";
    case "null":
      return "null";
    case "object":
    case "record":
      return "an object";
    case "array": {
      const size = sizes(checks, "item");
      return `a list${def.element ? ` of ${plural(expectation(def.element as Schema))}` : ""}${size ? ` (${size})` : ""}`;
    }
    case "literal":
      return oneOf(def.values as unknown[]);
    case "enum":
      return oneOf(Object.values(def.entries as Record<string, unknown>));
    case "union":
      return (def.options as Schema[]).map(expectation).join(" or ");
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return `${expectation(def.innerType as Schema)}${def.type === "nullable" ? " or null" : ""}`;
    case "pipe":
      return expectation(def.in as Schema);
    default:
      return "a valid value";
  }
}

/** "a whole number from 1 to 9" → "whole numbers from 1 to 9", for a list's items (an inner list's size left out). */
function plural(words: string): string {
  return words
    .replace(/ \([^()]*\)$/, "")
    .replace(/^text\b/, "text values")
    .replace(/^non-empty text\b/, "non-empty text values")
    .replace(/^an? (whole number|number|list|object|UUID|URL|date|email address|valid value)/, (_, head: string) => `${head}${head.endsWith("ss") ? "es" : "s"}`);
}

function oneOf(values: unknown[]): string {
  const shownValues = values.map((v) => JSON.stringify(v));
  return shownValues.length === 1 ? shownValues[0] : `one of ${shownValues.slice(0, -1).join(", ")} or ${shownValues.at(-1)}`;
}

/** What the input was, against what was expected: "got 5", "the field is missing", "got 250 characters". */
function got(issue: Issue): string {
  if (issue.input === undefined) return "the field is missing";
  if ((issue.code === "too_big" || issue.code === "too_small") && typeof issue.input === "string") return `got ${issue.input.length} characters`;
  return `got ${shown(issue.input)}`;
}

/** The message of one validation issue, in the app's words (z.config's customError). */
export function describeIssue(issue: Issue): string {
  const schema = (issue as Issue & { schema?: Schema }).schema ?? issue.inst;
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "object" && !issue.path?.length && issue.input !== undefined) return `expected a JSON object, got ${shown(issue.input)}`;
      return `expected ${expectation(schema as Schema)}, ${got(issue)}`;
    case "too_small":
    case "too_big":
      return `expected ${expectation(schema as Schema)}, ${got(issue)}`;
    case "invalid_value":
      return `expected ${oneOf(issue.values)}, ${got(issue)}`;
    case "invalid_union": {
      const options = (issue as Issue & { options?: unknown[] }).options;
      const discriminator = (issue as Issue & { discriminator?: string }).discriminator;
      if (options?.length) {
        const value = discriminator ? (issue.input as Record<string, unknown> | undefined)?.[discriminator] : issue.input;
        return `expected ${oneOf(options)}, ${value === undefined ? "the field is missing" : `got ${shown(value)}`}`;
      }
      return `expected ${expectation(schema as Schema)}, ${got(issue)}`;
    }
    case "invalid_format": {
      const format = issue.format === "regex" ? `text of the form ${String((issue as { pattern?: unknown }).pattern)}` : (FORMATS[issue.format] ?? `a valid ${issue.format}`);
      return `expected ${format}, ${got(issue)}`;
    }
    case "not_multiple_of":
      return `expected a multiple of ${number(issue.divisor as number)}, ${got(issue)}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}: leave ${issue.keys.length === 1 ? "it" : "them"} out`;
    case "invalid_key":
      return `a key of this ${issue.origin} is not valid`;
    case "invalid_element":
      return `an item of this ${issue.origin} is not valid`;
    default:
      return "this value is not accepted here";
  }
}

z.config({ customError: describeIssue });
