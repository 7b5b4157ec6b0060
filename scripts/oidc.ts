import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { freePort } from "./db/admin";

export type OidcProvider = { issuer: string; clientId: string; clientSecret: string; stop: () => Promise<void> };

/**
 * A real OpenID Connect provider on 127.0.0.1 for the tests (scripts/oidc-provider.mjs, the npm
 * package oidc-provider), as a child process, so it answers while the test runner waits on vitest.
 * `redirectUris` are the app's callbacks it accepts (`{NEXTAUTH_URL}/api/auth/callback/{id}`).
 */
export async function startOidcProvider(redirectUris: string[]): Promise<OidcProvider> {
  const port = await freePort();
  const clientId = "quiltboard";
  const clientSecret = randomBytes(24).toString("base64url");
  const script = path.join(process.cwd(), "scripts", "oidc-provider.mjs");
  const child = spawn(process.execPath, [script, String(port), clientId, clientSecret, ...redirectUris], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await exited;
  };
  const issuer = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the OpenID provider exited before it was ready: ${output}`);
    try {
      if ((await fetch(`${issuer}/.well-known/openid-configuration`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the OpenID provider did not start within 20 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { issuer, clientId, clientSecret, stop };
}
