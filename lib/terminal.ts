// Reading what a person types: echo off for passwords on a terminal, or lines of piped stdin (so
// secrets never appear in the shell history or the process list). Used by `npm run admin`, the
// image's `admin` command and the `quiltboard` CLI.
import { createInterface } from "node:readline";

let piped: string[] | null = null;

/** One line from the terminal (not echoed unless `echo`), or the next line of stdin when it is not a terminal (null at its end). */
export async function readLine(prompt: string, options: { echo?: boolean } = {}): Promise<string | null> {
  if (!process.stdin.isTTY) {
    if (!piped) {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      piped = Buffer.concat(chunks).toString("utf8").split(/\r?\n/);
    }
    return piped.length ? piped.shift()! : null;
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (!options.echo) (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s) => void (s.startsWith(prompt) && process.stderr.write(prompt));
  const answer = await new Promise<string>((resolve) => rl.question(prompt, resolve));
  rl.close();
  if (!options.echo) process.stderr.write("\n");
  return answer;
}
