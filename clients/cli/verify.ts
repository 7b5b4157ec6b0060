// `quiltboard verify SLUG`: checks a revealed competition (docs/mechanism.md §2.10) from the outside.
// The solution's bytes and the secret with its settings must hash to the commitment published when
// the competition opened, and every released answer must come out again when Algorithm 1 is replayed
// from the secret on the transcript's values: a changed label changes the solution's hash, a changed
// answer fails its replay.
import { createHash } from "node:crypto";
import { CsvReader } from "../../lib/csv/reader";
import { secretCommitment } from "../../lib/mechanism/commitment";
import { createReplay, type ReplayReport } from "../../lib/mechanism/replay";
import type { Reveal } from "../../lib/responses";
import type { Client } from "./client";

export type Verification = {
  /** whether each hash matches the commitment */
  solution: boolean;
  secret: boolean;
  /** the transcript's answers replayed, and those that differ */
  answers: ReplayReport;
};

/** Fetches the reveal of `slug` and checks it; throws only when it cannot be fetched. */
export async function verifyCompetition(client: Client, slug: string): Promise<Verification> {
  const reveal = await client.request<Reveal>("GET", `/api/v1/competitions/${encodeURIComponent(slug)}/reveal`);
  const [solution, transcript] = await Promise.all([client.download(reveal.solution.url), client.download(reveal.transcript.url)]);
  const secret = Buffer.from(reveal.secret, "hex");
  const replay = createReplay({ ...reveal.mechanism, budget: 0 }, secret, Infinity);
  let columns: string[] | null = null;
  const reader = new CsvReader(
    (record) => {
      const fields = record.fields();
      if (!columns) return void (columns = fields);
      const at = (name: string) => fields[columns!.indexOf(name)];
      const number = (name: string) => Number(at(name));
      replay.add({
        id: at("submission_id"),
        streamTeamId: at("stream"),
        queryIndex: number("query_index"),
        position: number("position"),
        kind: at("kind"),
        answer: at("answer") === "" ? null : number("answer"),
        budgetBefore: number("budget_before"),
        budgetAfter: number("budget_after"),
        publicValue: number("public_value"),
        holdoutValue: number("holdout_value"),
      });
    },
    { maxRecordBytes: 64 * 1024, maxFields: 32 },
  );
  reader.push(transcript.bytes);
  reader.end();
  return {
    solution: createHash("sha256").update(solution.bytes).digest("hex") === reveal.commitment.solution,
    secret: secretCommitment(secret, reveal.settings) === reveal.commitment.secret,
    answers: replay.report,
  };
}

/** The verification in lines: what matched, each difference, and whether the board is true. */
export function verificationLines({ solution, secret, answers }: Verification): string[] {
  const lines = [
    `solution: ${solution ? "matches the commitment" : "DIFFERS from the commitment (its SHA-256 is not the one published)"}`,
    `secret and settings: ${secret ? "match the commitment" : "DIFFER from the commitment"}`,
    `answers: ${answers.queries} replayed, ${answers.mismatches} ${answers.mismatches === 1 ? "differs" : "differ"}`,
    ...answers.examples.map((e) => `  ${e.submissionId}: ${e.problem}`),
  ];
  return [...lines, solution && secret && answers.mismatches === 0 ? "verified: every answer follows the published mechanism" : "NOT verified"];
}
