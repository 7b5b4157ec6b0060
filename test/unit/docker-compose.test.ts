import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

type Service = {
  image?: string;
  command?: string;
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
};

const compose = parse(readFileSync("docker-compose.yml", "utf8")) as { services: Record<string, Service> };
const { app, postgres } = compose.services;

describe("docker-compose.yml agrees with the app's configuration", () => {
  it("has an app and a postgres service of PostgreSQL 15 or newer", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["app", "postgres"]);
    expect(Number(/^postgres:(\d+)/.exec(postgres.image ?? "")?.[1])).toBeGreaterThanOrEqual(15);
  });

  it("points DATABASE_URL at the postgres service with its own user, password and database", () => {
    const url = new URL(app.environment!.DATABASE_URL);
    expect(url.protocol).toBe("postgresql:");
    expect(url.hostname).toBe("postgres");
    expect(url.port).toBe("5432");
    expect(url.username).toBe(postgres.environment!.POSTGRES_USER);
    expect(url.password).toBe(postgres.environment!.POSTGRES_PASSWORD);
    expect(url.pathname).toBe(`/${postgres.environment!.POSTGRES_DB}`);
  });

  it("publishes the app's PORT and uses it in NEXTAUTH_URL", () => {
    const port = app.environment!.PORT;
    expect(app.ports).toContain(`${port}:${port}`);
    expect(new URL(app.environment!.NEXTAUTH_URL).port).toBe(port);
    expect(app.command).toBe("npm start");
  });

  it("waits for a healthy database", () => {
    expect(postgres.healthcheck).toBeDefined();
    expect(app.depends_on?.postgres.condition).toBe("service_healthy");
  });

  it("uses only variables the app reads", () => {
    const known = ["DATABASE_URL", "PORT", "NEXTAUTH_URL", "NEXTAUTH_SECRET"];
    for (const name of Object.keys(app.environment!)) expect(known).toContain(name);
  });
});
