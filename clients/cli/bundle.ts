// `quiltboard push DIR`: a competition kept in version control. DIR holds competition.yaml (or
// competition.json) naming the settings, the pages (Markdown files or inline text), the solution,
// the correlation model, the mechanism and the data files; push creates the competition or brings
// it up to date through the REST API, the same calls the manage page makes.
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { type Client, CliError } from "./client";
import { LIVE_SETTINGS, updateCompetitionSchema } from "@/lib/validation/competitions";

/** What competition.yaml may hold (docs/operating.md §7; docs/bundle-example/ is a complete bundle). */
type Bundle = {
  slug: string;
  title: string;
  /** Markdown, or the name of a .md file in the bundle */
  description?: string;
  rules?: string;
  metric: { name: string; params?: Record<string, number> };
  startsAt?: string;
  endsAt: string;
  dailySubmissionLimit?: number;
  maxTeamSize?: number;
  displayPrecision?: number;
  holdoutCap?: number;
  lateSubmissions?: boolean;
  access?: Record<string, unknown>;
  /** the solution CSV's file name */
  solution: string;
  correlation?: Record<string, unknown>;
  mechanism: Record<string, unknown>;
  /** data files for competitors */
  data?: string[];
  /** publish once everything is in place */
  publish?: boolean;
  /** what publishing asks to acknowledge (GET …/publish: no_guarantee, model_ignores_groups, model_ignores_states), said in version control */
  acknowledge?: string[];
};

const REQUIRED = ["slug", "title", "metric", "endsAt", "solution", "mechanism"] as const;
/** The settings a bundle may carry are those PATCH …/competitions/{slug} takes; once published, the live ones. */
const SETTINGS = Object.keys(updateCompetitionSchema.shape) as (keyof typeof updateCompetitionSchema.shape)[];

export function readBundle(dir: string): { bundle: Bundle; file: (name: string) => Buffer } {
  const file = (name: string) => {
    const full = path.resolve(dir, name);
    if (!full.startsWith(path.resolve(dir) + path.sep)) throw new CliError(`${name}: bundle files must be inside ${dir}`);
    if (!existsSync(full)) throw new CliError(`${name}: no such file in ${dir}`);
    // A symbolic link (or a linked directory on the way) could point at any file of this machine.
    if (!realpathSync(full).startsWith(realpathSync(dir) + path.sep)) throw new CliError(`${name}: a link to a file outside ${dir}; bundle files must be inside it`);
    return readFileSync(full);
  };
  const manifest = ["competition.yaml", "competition.yml", "competition.json"].find((f) => existsSync(path.join(dir, f)));
  if (!manifest) throw new CliError(`${dir} has no competition.yaml (or competition.json)`);
  let bundle: Bundle;
  try {
    bundle = parse(readFileSync(path.join(dir, manifest), "utf8")) as Bundle;
  } catch (error) {
    throw new CliError(`${manifest}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (!bundle || typeof bundle !== "object") throw new CliError(`${manifest}: expected the competition's settings as a mapping`);
  const missing = REQUIRED.filter((k) => bundle[k] === undefined);
  if (missing.length) throw new CliError(`${manifest}: missing ${missing.join(", ")}`);
  for (const page of ["description", "rules"] as const) {
    const value = bundle[page];
    if (typeof value === "string" && /^[\w./-]+\.md$/.test(value.trim())) bundle[page] = file(value.trim()).toString("utf8");
  }
  // YAML reads unquoted dates as strings already ("yaml" keeps them as text by default); normalise Date objects too.
  for (const key of ["startsAt", "endsAt"] as const) if ((bundle[key] as unknown) instanceof Date) bundle[key] = (bundle[key] as unknown as Date).toISOString();
  return { bundle, file };
}

type Details = Record<string, unknown> & { status: "draft" | "published" | "closed"; metric: { name: string; params: Record<string, number> } };

/** Creates or updates the competition of the bundle in DIR; reports each step through `out` and returns them. */
export async function pushBundle(client: Client, dir: string, out: (line: string) => void): Promise<string[]> {
  const { bundle, file } = readBundle(dir);
  const steps: string[] = [];
  const say = (line: string) => (steps.push(line), out(line));
  const base = `/api/v1/competitions/${encodeURIComponent(bundle.slug)}`;
  const settings = Object.fromEntries(SETTINGS.filter((k) => bundle[k] !== undefined).map((k) => [k, bundle[k]]));

  const existing = await client.request<Details>("GET", base).catch((error) => {
    if (error instanceof CliError && /^no competition called/.test(error.message)) return null;
    throw error;
  });
  let status: Details["status"] = "draft";
  if (!existing) {
    await client.request("POST", "/api/v1/competitions", { json: { slug: bundle.slug, ...settings } });
    say(`created ${bundle.slug} (a draft)`);
  } else {
    status = existing.status;
    const current = { ...existing, metric: { name: existing.metric.name, params: existing.metric.params } };
    const same = (k: string) => JSON.stringify(normalise(k, current[k as keyof typeof current])) === JSON.stringify(normalise(k, settings[k]));
    const changed = Object.keys(settings).filter((k) => !same(k));
    const frozen = status === "draft" ? [] : changed.filter((k) => !(LIVE_SETTINGS as readonly string[]).includes(k));
    if (frozen.length) throw new CliError(`${frozen.join(", ")} cannot change once the competition is published; change them back in the bundle`);
    if (changed.length) {
      await client.request("PATCH", base, { json: Object.fromEntries(changed.map((k) => [k, settings[k]])) });
      say(`updated ${changed.join(", ")}`);
    } else say("settings unchanged");
  }

  if (status === "draft") {
    const solution = await client.request<{ rows: number; public: number; holdout: number }>("PUT", `${base}/solution`, {
      body: new Uint8Array(file(bundle.solution)),
      contentType: "text/csv",
    });
    say(`solution: ${solution.rows.toLocaleString("en")} rows (${solution.public.toLocaleString("en")} public, ${solution.holdout.toLocaleString("en")} holdout)`);
    await client.request("PUT", `${base}/correlation`, { json: { model: bundle.correlation ?? { kind: "independent" } } });
    say(`correlation: ${String(bundle.correlation?.kind ?? "independent")}`);
    const plan = await client.request<{ sigma: number; threshold: number; budget: number; guarantee: { explanation: string } }>("PUT", `${base}/mechanism`, {
      json: bundle.mechanism,
    });
    say(`mechanism: σ = ${plan.sigma.toPrecision(3)}, T = ${plan.threshold.toPrecision(3)}, budget ${plan.budget}. ${plan.guarantee.explanation}`);
  }
  for (const name of bundle.data ?? []) {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(file(name))]), path.basename(name));
    await client.request("POST", `${base}/attachments`, { body: form });
    say(`data file: ${path.basename(name)}`);
  }
  if (bundle.publish && status === "draft") {
    const published = await client.request<{ commitment: { solution: string; secret: string; publishedAt: string } }>("POST", `${base}/publish`, {
      json: { acknowledge: bundle.acknowledge ?? [] },
    });
    // The bundle's record of what publishing fixed (docs/mechanism.md §2.10), to keep in version control beside it.
    writeFileSync(path.join(dir, "commitment.json"), JSON.stringify({ slug: bundle.slug, ...published.commitment }, null, 2) + "\n");
    say(`published ${bundle.slug}; its commitment is in commitment.json`);
  }
  return steps;
}

/** Compares a stored value with the bundle's: dates as instants, a missing page as empty. */
function normalise(key: string, value: unknown): unknown {
  if ((key === "startsAt" || key === "endsAt") && value) return new Date(value as string).toISOString();
  if ((key === "description" || key === "rules") && value === undefined) return "";
  if (key === "metric" && value && typeof value === "object") return { name: (value as { name: string }).name, params: (value as { params?: object }).params ?? {} };
  return value ?? null;
}
