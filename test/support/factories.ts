// Test data made through the services themselves (integration tests): users, competitions at each
// step of their life, and the error a call is expected to throw. Every name carries a random tag, so
// tests can run in parallel on one database.
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { setCorrelation, setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition } from "@/lib/server/competitions/competitions";
import { AppError } from "@/lib/server/platform/errors";
import { publishCompetition } from "@/lib/server/competitions/publish";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { createUser, type PublicUser } from "@/lib/server/accounts/users";
import { correlationModelSchema, mechanismSchema } from "@/lib/validation/calibration";
import { createCompetitionSchema, type PublishRequest } from "@/lib/validation/competitions";
import { signUpSchema } from "@/lib/validation/accounts";
import { demoSolutionCsv } from "@/prisma/demo-solution";

/** A short random tag for unique names. */
export const tag = (): string => randomBytes(5).toString("hex");

/** A request body stream holding `text`, as a route handler hands it to a service: whole, or in pieces of `pieceBytes` as a socket reads them. */
export function stream(text: string, pieceBytes?: number): ReadableStream<Uint8Array> {
  if (!pieceBytes) return new Response(text).body!;
  const bytes = Buffer.from(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, (offset += pieceBytes))));
    },
  });
}

/** A new account (not an organizer of anything yet). */
export function newUser(prefix = "user"): Promise<PublicUser> {
  return createUser(signUpSchema.parse({ email: `${prefix}-${tag()}@example.com`, password: "a long enough password", name: `${prefix} ${tag()}` }));
}

/** The AppError that `promise` rejects with (the test fails if it resolves or throws something else). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** The practical mechanism most tests publish with: σ = 0.01, T = 0.04, B₀ = 5. */
export const PRACTICAL = { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } as const;

export type CompetitionOptions = {
  /** fields of POST /api/v1/competitions beyond slug, title, metric and endsAt */
  settings?: Record<string, unknown>;
  metric?: string;
  /** days until the deadline (default 10) */
  days?: number;
  /** the solution CSV (default the demo's 1,440 rows) */
  solution?: string;
  /** PUT …/mechanism's body (default PRACTICAL) */
  mechanism?: Record<string, unknown>;
  /** the correlation model, set before the solution (default independent rows, kept whatever the file declares) */
  model?: Record<string, unknown>;
  owner?: PublicUser;
};

/** Every acknowledgment publishing may ask for (docs/operating.md, Publishing): the factories publish whatever the plan says. */
export const ACKNOWLEDGE_ALL: PublishRequest = { acknowledge: ["no_guarantee", "model_ignores_groups", "model_ignores_states"] };

/**
 * A draft with its owner; with `solution` given, the solution uploaded. Its correlation model is
 * set first (independent rows unless `model` says otherwise), so that the solution's declared groups
 * and states do not replace it: tests of that default upload to a draft of their own.
 */
export async function draftCompetition(options: CompetitionOptions = {}) {
  const owner = options.owner ?? (await newUser("owner"));
  const slug = `t-${tag()}`;
  // The bodies parsed as the routes parse them (the services take what the schemas give).
  const competition = await createCompetition(
    owner,
    createCompetitionSchema.parse({
      slug,
      title: "Test competition",
      metric: { name: options.metric ?? "accuracy" },
      endsAt: new Date(Date.now() + 86_400_000 * (options.days ?? 10)).toISOString(),
      ...options.settings,
    }),
  );
  await setCorrelation(owner, slug, { model: correlationModelSchema.parse(options.model ?? { kind: "independent" }) });
  if (options.solution !== undefined) await uploadSolution(owner, slug, stream(options.solution));
  return { owner, slug, competition };
}

/** A published competition: created, the solution uploaded, the mechanism set, published. */
export async function publishedCompetition(options: CompetitionOptions = {}) {
  const { owner, slug } = await draftCompetition({ ...options, solution: options.solution ?? demoSolutionCsv() });
  await setMechanism(owner, slug, mechanismSchema.parse(options.mechanism ?? PRACTICAL));
  const competition = await publishCompetition(owner, slug, ACKNOWLEDGE_ALL);
  return { owner, slug, competition, id: competition.id };
}
