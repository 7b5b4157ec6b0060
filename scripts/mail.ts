import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { freePort } from "./db/admin";

export type MailCatcher = { smtpUrl: string; webUrl: string; stop: () => Promise<void> };

/**
 * A local mail catcher (MailDev) for the one-command demo and the tests: a real SMTP server whose
 * mail can be read in a browser at `webUrl` (and as JSON at `webUrl/email`). Runs as a child
 * process on 127.0.0.1; the inbox is on `webPort` when that port is free, else on any free port.
 * With `directory`, the mail is kept there and read back at the next start (npm start keeps it under
 * .data/mail, so a link not yet opened survives a restart); without, it lives as long as the process.
 */
export async function startMailCatcher(options: { webPort?: number; directory?: string } = {}): Promise<MailCatcher> {
  const smtp = await freePort();
  const web = await freePort(options.webPort);
  const bin = path.join(process.cwd(), "node_modules", "maildev", "bin", "maildev");
  if (options.directory) mkdirSync(options.directory, { recursive: true });
  const keep = options.directory ? ["--mail-directory", options.directory] : [];
  const child = spawn(process.execPath, [bin, "--smtp", String(smtp), "--web", String(web), "--ip", "127.0.0.1", "--silent", ...keep], { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  child.stderr.on("data", (d) => (output += d));
  const webUrl = `http://127.0.0.1:${web}`;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the mail catcher exited before it was ready: ${output}`);
    try {
      if ((await fetch(`${webUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the mail catcher did not start within 20 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { smtpUrl: `smtp://127.0.0.1:${smtp}`, webUrl, stop };
}
