import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, parseDocument } from "yaml";
import { CONFIGURATION } from "@/lib/server/platform/env";
import { APP_HEAP_MB, APP_SEMI_SPACE_MB } from "@/scripts/app";

// Docker is not installed where the tests run: these check that the image's recipe and the compose
// files agree with what the app reads and with what npm test runs (the standalone entry).

type Service = {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas: number };
  restart?: string;
};

const compose = parse(readFileSync("docker-compose.yml", "utf8")) as { services: Record<string, Service> };
const { app, postgres, mail } = compose.services;
// `!reset` is Compose's tag for dropping a list from the base file; the yaml parser keeps it as a custom tag.
const scale = parseDocument(readFileSync("compose.scale.yml", "utf8"), { customTags: [{ tag: "!reset", resolve: () => [] }] }).toJS() as {
  services: Record<string, Service & { configs?: unknown }>;
  configs: { caddyfile: { content: string } };
};
const dockerfile = readFileSync("Dockerfile", "utf8");
const stages = dockerfile.split(/^FROM /m).slice(1);

/** Every variable the app, its entry or its preload reads from the environment: the configuration's schema. */
const KNOWN: string[] = CONFIGURATION.map((v) => v.name);

describe("the Dockerfile", () => {
  it("builds in one stage and runs the standalone entry as an unprivileged user in another", () => {
    expect(stages).toHaveLength(2);
    const [build, runtime] = stages;
    expect(build).toMatch(/^node:\d+\S* AS build/); // the pinned Node: test/unit/runtime.test.ts
    expect(build).toContain("RUN npm ci");
    expect(build).toContain("RUN npm run build");
    expect(runtime).toMatch(/^node:\d+\S* AS runtime/);
    expect(runtime).toContain("COPY --from=build --chown=node:node /src/.next/standalone ./");
    expect(runtime).toMatch(/^USER node$/m);
    // the heap limit and young generation npm start and npm test run with
    expect(runtime).toMatch(new RegExp(`^CMD \\["node", "--max-old-space-size=${APP_HEAP_MB}", "--max-semi-space-size=${APP_SEMI_SPACE_MB}", "entry\\.mjs"\\]$`, "m"));
    expect(runtime).toContain("/api/health");
    expect(runtime).not.toMatch(/npm (ci|install)/); // only what the standalone build traced
  });
});

describe("docker-compose.yml agrees with the app's configuration", () => {
  it("builds the app from the Dockerfile beside PostgreSQL 15 or newer and a mail catcher", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["app", "mail", "postgres"]);
    expect(app.build).toBe(".");
    expect(Number(/^postgres:(\d+)/.exec(postgres.image ?? "")?.[1])).toBeGreaterThanOrEqual(15);
    expect(mail.image).toMatch(/^maildev\/maildev:/);
  });

  it("points DATABASE_URL at the postgres service with its own user, password and database, and mail at the catcher", () => {
    const url = new URL(app.environment!.DATABASE_URL);
    expect([url.protocol, url.hostname, url.port]).toEqual(["postgresql:", "postgres", "5432"]);
    expect(url.username).toBe(postgres.environment!.POSTGRES_USER);
    expect(url.password).toBe(postgres.environment!.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${postgres.environment!.POSTGRES_DB}`);
    expect(app.environment!.SMTP_URL).toBe("smtp://mail:1025");
  });

  it("publishes the app's PORT, uses it in NEXTAUTH_URL, and insists on a NEXTAUTH_SECRET", () => {
    const port = app.environment!.PORT;
    expect(app.ports).toContain(`${port}:${port}`);
    expect(new URL(app.environment!.NEXTAUTH_URL).port).toBe(port);
    expect(app.environment!.NEXTAUTH_SECRET).toMatch(/^\$\{NEXTAUTH_SECRET:\?/);
  });

  it("starts the app once the database and the mail catcher are healthy, and checks the app's health", () => {
    for (const service of [postgres, mail, app]) expect(service.healthcheck).toBeDefined();
    expect(app.depends_on).toEqual({ postgres: { condition: "service_healthy" }, mail: { condition: "service_healthy" } });
    expect(app.healthcheck!.test.join(" ")).toContain(`http://127.0.0.1:${app.environment!.PORT}/api/health`);
  });

  it("restarts every service that ends (the app past its heap limit), in the scaled setup too", () => {
    for (const service of [postgres, mail, app, scale.services.proxy]) expect(service.restart).toBe("unless-stopped");
    expect(scale.services.app.restart).toBeUndefined(); // the base file's holds
  });

  it("uses only variables the app reads", () => {
    for (const name of Object.keys(app.environment!)) expect(KNOWN).toContain(name);
    for (const name of Object.keys(scale.services.app.environment!)) expect(KNOWN).toContain(name);
  });
});

describe("compose.scale.yml", () => {
  it("runs three app instances behind Caddy (least busy first), which they trust for the client address", () => {
    expect(scale.services.app.deploy!.replicas).toBe(3);
    expect(scale.services.app.ports).toEqual([]);
    expect(scale.services.app.environment!.TRUST_PROXY).toBe("1");
    // Several instances share one S3 bucket: a local directory per container would be refused at start.
    expect(scale.services.app.environment!.QUILTBOARD_FILES).toBe("s3");
    expect(scale.services.app.environment!.S3_BUCKET).toMatch(/^\$\{S3_BUCKET:\?/);
    expect(new URL(scale.services.app.environment!.NEXTAUTH_URL).port).toBe(scale.services.proxy.ports![0].split(":")[0]);
    expect(scale.services.proxy.image).toMatch(/^caddy:/);
    expect(scale.configs.caddyfile.content).toMatch(/dynamic a app 3000/);
    expect(scale.configs.caddyfile.content).toMatch(/lb_policy least_conn/); // what `npm run bench -- load` routes like
    expect(scale.services.proxy.depends_on).toEqual({ app: { condition: "service_healthy" } });
  });
});
