// The JSON bodies the REST API answers with (docs/api.md): built by lib/server, read by pages and
// client components. Types only, so a client component can import them without pulling server code
// (or its secrets) into the browser bundle.
import type { BudgetByCalibration, Point } from "./calibration/curves";
import type { Plan } from "./calibration/planner";
import type { AnswerKind } from "./mechanism/thresholdout";

/** The mechanism's answer kinds, and "late": after the close, the exact holdout score (never ranked in the final standings). */
export type ResultKind = AnswerKind | "late";

/** POST …/submissions: the answer to one submission (display units) and the team's budget after it. */
export type SubmissionResult = {
  id: string;
  createdAt: string;
  answer: { kind: ResultKind; score: number | null };
  budget: { remaining: number; initial: number };
};

/** GET …/submissions: one of the caller's team's submissions (answers only, never raw scores). */
export type MySubmission = {
  id: string;
  createdAt: string;
  by: string;
  answer: { kind: ResultKind; score: number | null };
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
  /** the daily cap: used today, left today, when it resets (midnight UTC) */
  limits: DailyLimits;
};

/** One ranked team on the live leaderboard. */
export type LeaderboardEntry = {
  rank: number;
  /** the team's name (docs/api.md), and its id for links */
  team: string;
  teamId: string;
  /** the team's best answer, re-measured with fresh noise (docs/mechanism.md §2.6), display units */
  score: number | null;
  /** half-width of the score's 95 % interval from the mechanism's noise, display units */
  uncertainty: number | null;
  submissions: number;
  budget: { remaining: number; initial: number };
  lastSubmissionAt: string | null;
};

/** GET …/leaderboard: one page of the live leaderboard. */
export type Leaderboard = {
  metric: { name: string; title: string; direction: "higher" | "lower" };
  displayPrecision: number;
  total: number;
  page: number;
  pageSize: number;
  entries: LeaderboardEntry[];
  /** the organizers' baselines: unranked rows, each one noisy holdout value (lib/server/scoring/sandbox.ts) */
  baselines: { name: string; score: number; uncertainty: number | null }[];
};

/** POST …/mechanism/preview: the plan and the three plots, nothing stored. */
export type MechanismPreview = {
  plan: Plan;
  /** the three plots; `tolerance` is the τ of the side-by-side comparison */
  curves: { budgetByTolerance: Point[]; epsBdpByNoise: Point[]; budgetByCalibration: BudgetByCalibration; tolerance: number };
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

/** The holdout health (organizers): ε_DP spent per team and in all (lib/mechanism/accounting.ts). */
export type HealthReport = {
  perHoldoutAnswer: number;
  total: number;
  teams: { name: string; holdoutAnswers: number; remeasures: number; openEpoch: boolean; epsDp: number; remaining: number; initial: number; exhausted: boolean }[];
  exhausted: number;
  /** baselines ever shown on the leaderboard: one re-measurement each, counted in the total */
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
  /** rank and shown score (the re-measured best) as on the leaderboard */
  team: {
    id: string;
    name: string;
    members: string[];
    budget: { remaining: number; initial: number };
    rank: number | null;
    score: number | null;
    disqualified: { at: string; reason: string } | null;
  };
  metric: Leaderboard["metric"];
  displayPrecision: number;
  /** half-width of a holdout answer's 95 % interval (display units); public answers are exact public scores */
  uncertainty: number | null;
  /** every query in time order: the released answer (null when the budget was spent) and the budget after */
  history: { at: string; kind: "public" | "holdout" | "exhausted"; score: number | null; budget: number }[];
};
