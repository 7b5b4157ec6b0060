// The JSON bodies the REST API answers with (docs/api.md): built by lib/server, read by pages and
// client components. Types only, so a client component can import them without pulling server code
// (or its secrets) into the browser bundle.
import type { BudgetByCalibration, Point } from "./calibration/curves";
import type { Plan, Proof } from "./calibration/planner";
import type { BoardKind } from "./mechanism/board";
import type { AnswerKind } from "./mechanism/thresholdout";

/**
 * The kinds a scored submission is stored with: the mechanism's (public, holdout, exhausted — the
 * team's budget is spent — and limit — past the competition's m), and "capped": no check because the
 * competition's cap on holdout answers over all teams is reached.
 */
export type StoredKind = AnswerKind | "capped";

/** …and "late": after the close, the exact holdout score (never ranked in the final standings). */
export type ResultKind = StoredKind | "late";

/**
 * An answer as its team sees it, in display units: `score` is what the mechanism released (null for
 * ⊥), `publicScore` the submission's exact public score, which the team always sees (it is a
 * function of the public rows alone: docs/mechanism.md §2.2); when the answer is not a public one it
 * is "public score, not checked".
 */
export type Answer = { kind: ResultKind; score: number | null; publicScore: number };

/** POST …/submissions: the answer to one submission and the team's budget after it. */
export type SubmissionResult = {
  id: string;
  createdAt: string;
  answer: Answer;
  budget: { remaining: number; initial: number };
};

/** GET …/submissions: one of the caller's team's submissions (answers only, never raw scores). */
export type MySubmission = {
  id: string;
  createdAt: string;
  by: string;
  answer: Answer;
  budget: { remaining: number; initial: number };
  selected: boolean;
  description: string | null;
  filename: string | null;
};

/** A team's daily submissions (GET …/team `limits`): the cap counts per UTC day. */
export type DailyLimits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };

/** GET …/team: the caller's team. */
export type TeamView = {
  id: string;
  name: string;
  inviteCode: string;
  members: { name: string }[];
  budget: { remaining: number; initial: number };
  submissions: number;
  /** the competition's limit m of scored submissions per team, and how many the team has used (null before publishing) */
  scored: { used: number; limit: number } | null;
  /** the daily cap: used today, left today, when it resets (midnight UTC) */
  limits: DailyLimits;
  /** set when the organizers disqualified the team: when and why (it cannot submit) */
  disqualified: { at: string; reason: string } | null;
  /** pending merge requests: other teams asking to absorb this one (`incoming`), and this team's own (`outgoing`) */
  mergeRequests: { incoming: MergeRequestView[]; outgoing: MergeRequestView[] };
};

/** A pending merge request as a team's members see it: the other team, who asked, when. */
export type MergeRequestView = { id: string; team: string; teamId: string; requestedBy: string; createdAt: string };

/** One ranked team on the live leaderboard. */
export type LeaderboardEntry = {
  rank: number;
  /** the team's name (docs/api.md), and its id for links */
  team: string;
  teamId: string;
  /** the shown score (docs/mechanism.md §2.6): the team's best public answer, else its latest holdout answer, display units */
  score: number | null;
  /** which of the two the score is: a public score checked against the hidden holdout, or a noisy holdout answer */
  kind: BoardKind | null;
  /** half-width of the score's 95 % interval (a public score's sampling error, a holdout answer's noise), display units */
  uncertainty: number | null;
  submissions: number;
  budget: { remaining: number; initial: number };
  lastSubmissionAt: string | null;
};

/** The 95 % half-widths of the board's two kinds of score, in the metric's display units (docs/mechanism.md §2.6). */
export type ScoreUncertainty = { public: number; holdout: number };

/** GET …/leaderboard: one page of the live leaderboard. */
export type Leaderboard = {
  metric: { name: string; title: string; direction: "higher" | "lower" };
  displayPrecision: number;
  total: number;
  page: number;
  pageSize: number;
  entries: LeaderboardEntry[];
  /** the organizers' baselines: unranked rows, each its public score (lib/server/scoring/sandbox.ts) */
  baselines: { name: string; score: number; kind: BoardKind; uncertainty: number | null }[];
};

/**
 * GET …/competitions/{slug} `guarantee`: what the shown scores are worth, display units
 * (docs/mechanism.md §2.6, §2.7). `team` covers a team acting on its own answers (the tighter of the
 * two proofs); `competition` covers anyone, whatever they read here and however many accounts they
 * hold (null tolerance: no competition-wide guarantee); `publicBound` is how far above its holdout
 * value a shown public score can be (T plus the threshold's noise, 95 %); `honestCharges` the holdout
 * checks an honest team is expected to get over its m submissions.
 */
export type GuaranteeSummary = {
  team: { holds: boolean; proof: Proof | null; tolerance: number | null; maxQueries: number; budget: number; beta: number };
  competition: { holds: boolean; tolerance: number | null; cap: number | null; teams: number; answersReleased: number };
  publicBound: number;
  honestCharges: number;
};

/** POST …/mechanism/preview: the plan and the three plots, nothing stored. */
export type MechanismPreview = {
  plan: Plan;
  /** the three plots; `tolerance` is the τ of the side-by-side comparison */
  curves: { budgetByTolerance: { bdp: Point[]; count: Point[] }; epsBdpByNoise: Point[]; budgetByCalibration: BudgetByCalibration; tolerance: number };
};

/** One changed setting, as the change log records it (dates as ISO strings). */
export type SettingChange = { field: string; before: unknown; after: unknown };

/** What the mechanism is after a change that moves m (docs/operating.md "Editing a live competition"). */
export type PlanShift = {
  before: PlanFigures;
  after: PlanFigures;
  /** true when σ, T and B₀ are recomputed (no team has submitted yet); false when only m and the guarantee move */
  replanned: boolean;
};

/** The figures of a plan that a settings change may move. */
export type PlanFigures = { sigma: number; threshold: number; budget: number; maxQueries: number; tolerance: number | null; holds: boolean; explanation: string };

/** PATCH …?preview=true: what a settings change would do, nothing stored. */
export type SettingsPreview = { changes: SettingChange[]; plan: PlanShift | null };

/** GET …/changes: one recorded settings change. */
export type ChangeLogEntry = { at: string; by: string; changes: SettingChange[] };

/** One thing publishing needs: whether it is in place, and what it is (when it is) or what to do. */
export type PublishCheck = { item: "deadline" | "solution" | "correlation" | "mechanism"; ok: boolean; detail: string };

/** GET …/publish (organizers, drafts): everything publishing needs; `ready` when all of it is in place. */
export type PublishChecklist = { ready: boolean; checks: PublishCheck[] };

/** GET …/bans: one banned user (organizers). */
export type BanView = { userId: string; name: string; email: string; reason: string; createdAt: string };

/** GET …/organizers (organizers): who organizes, and the invitations not accepted yet. */
export type OrganizersView = {
  organizers: { userId: string; name: string; email: string }[];
  invitations: { id: string; email: string; invitedBy: string; expiresAt: string }[];
};

/** The holdout health (organizers): ε_DP spent per team and in all (lib/mechanism/accounting.ts). */
export type HealthReport = {
  perHoldoutAnswer: number;
  total: number;
  teams: { name: string; holdoutAnswers: number; remeasures: number; openEpochs: number; epsDp: number; remaining: number; initial: number; exhausted: boolean }[];
  exhausted: number;
  /** baselines shown with a noisy holdout value (before baselines showed their public score): one re-measurement each, counted in the total */
  baselines: number;
};

/** Signals of one person behind several teams (organizers). */
export type SybilSignals = {
  /** accounts in different teams created from one address within a day; the address is never shown */
  sameAddress: { accounts: { name: string; team: string; createdAt: string }[] }[];
  nearIdentical: { teams: [string, string]; agreement: number }[];
};

/** GET …/registrations: one request to take part (organizers see all, a user their own). */
export type RegistrationView = { id: string; status: string; createdAt: string; user: { name: string; email: string } };

/** GET …/teams/{teamId}: a team's public page. */
export type TeamHistory = {
  /** rank, shown score and its kind as on the leaderboard */
  team: {
    id: string;
    name: string;
    members: string[];
    budget: { remaining: number; initial: number };
    rank: number | null;
    score: number | null;
    kind: BoardKind | null;
    disqualified: { at: string; reason: string } | null;
  };
  metric: Leaderboard["metric"];
  displayPrecision: number;
  /** the 95 % half-widths of a public answer (its sampling error) and of a holdout answer (its noise), display units */
  uncertainty: ScoreUncertainty | null;
  /** every query in time order: the released answer (null when the budget was spent) and the budget after */
  history: { at: string; kind: StoredKind; score: number | null; budget: number }[];
};
