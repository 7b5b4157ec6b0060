"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { AttackPreview } from "@/lib/experiments/preview";
import { callApi } from "../api-client";
import { BarChart, LineChart } from "../charts";
import { significant } from "@/lib/format";
import { type Display, displayedHalfWidth } from "@/lib/metrics/types";
import type { MechanismPreview } from "@/lib/responses";

type Mode = "recommended" | "guarantee" | "practical";
type Input = { mode: Mode; tolerance: string; beta: string; maxQueries: string; split: string; sigma: string; threshold: string; budget: string };

/** The modes, each with what the organizer sets and a one-line meaning (docs/mechanism.md §2.4). */
const MODES: Record<Mode, { label: string; meaning: string }> = {
  recommended: { label: "Recommended (B₀)", meaning: "the noise and threshold that spare honest teams, for this holdout; you choose the holdout checks per team" },
  guarantee: { label: "Guarantee (τ, β)", meaning: "you choose how close every score must be to the truth; the planner finds the largest budget that keeps it" },
  practical: { label: "Practical (σ, T, B₀)", meaning: "you set the noise, the threshold and the budget; the planner says what they guarantee" },
};

function toBody(i: Input) {
  const opt = (v: string) => (v.trim() === "" ? undefined : Number(v));
  switch (i.mode) {
    case "recommended":
      return { mode: i.mode, budget: Number(i.budget), beta: opt(i.beta), maxQueries: opt(i.maxQueries) };
    case "guarantee":
      return { mode: i.mode, tolerance: Number(i.tolerance), beta: Number(i.beta), maxQueries: opt(i.maxQueries), split: opt(i.split) };
    case "practical":
      return { mode: i.mode, sigma: Number(i.sigma), threshold: Number(i.threshold), budget: Number(i.budget), beta: opt(i.beta), maxQueries: opt(i.maxQueries) };
  }
}

const n4 = (x: number) => significant(x);

/**
 * Recommended, guarantee or practical mode with the planner's live answer in words and plots: each
 * symbol with its meaning, the per-team promise by holdout checks used, and, where a guarantee does
 * not hold, what would make it hold.
 */
export function MechanismPanel({ slug, initial, locked, metric }: { slug: string; initial: Partial<Input>; locked: boolean; metric: { title: string; display: Display } }) {
  /** A deviation in [0, 1] units in the metric's units, at its widest (docs/mechanism.md §4). */
  const inUnits = (x: number) => displayedHalfWidth(metric.display, 0, x);
  const router = useRouter();
  const [input, setInput] = useState<Input>({
    mode: "recommended",
    tolerance: "0.2",
    beta: "0.05",
    maxQueries: "",
    split: "0.5",
    sigma: "0.01",
    threshold: "0.04",
    budget: "20",
    ...initial,
  });
  const [preview, setPreview] = useState<MechanismPreview>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [attack, setAttack] = useState<(AttackPreview & { budget: number }) | "running">();

  async function runAttack() {
    setAttack("running");
    const result = await callApi<AttackPreview & { budget: number }>(`/api/v1/competitions/${slug}/attack-preview`, { method: "POST", json: toBody(input) });
    if (!result.ok) {
      setAttack(undefined);
      return setError(result.error.message);
    }
    setAttack(result.data);
  }

  useEffect(() => {
    const timer = setTimeout(async () => {
      const result = await callApi<MechanismPreview>(`/api/v1/competitions/${slug}/mechanism/preview`, { method: "POST", json: toBody(input) });
      if (result.ok) {
        setPreview(result.data);
        setError(undefined);
      } else setError(result.error.message);
    }, 300);
    return () => clearTimeout(timer);
  }, [input, slug]);

  async function save() {
    const result = await callApi(`/api/v1/competitions/${slug}/mechanism`, { method: "PUT", json: toBody(input) });
    if (!result.ok) return setError(result.error.message);
    setSaved("Saved. These settings are used when you publish.");
    router.refresh();
  }

  const set = (key: keyof Input) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setSaved(undefined);
    setInput({ ...input, [key]: e.target.value });
  };
  const field = (key: keyof Input, label: string, help?: string) => (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <input
        name={key}
        type="number"
        step="any"
        value={input[key]}
        onChange={set(key)}
        disabled={locked}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
      />
      {help && <span className="text-xs text-slate-500">{help}</span>}
    </label>
  );
  const plan = preview?.plan;

  return (
    <div className="space-y-5" data-testid="mechanism-panel">
      <fieldset disabled={locked} className="grid gap-2 sm:grid-cols-3" role="radiogroup" aria-label="Mode">
        {(Object.keys(MODES) as Mode[]).map((m) => (
          <label
            key={m}
            className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50"
          >
            <input type="radio" name="mode" className="mt-1" checked={input.mode === m} onChange={() => setInput({ ...input, mode: m })} />
            <span>
              <span className="font-medium">{MODES[m].label}</span>
              <span className="block text-xs text-slate-600">{MODES[m].meaning}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-5">
        {input.mode === "guarantee" && (
          <>
            {field("tolerance", "Tolerance τ", "every score within τ of the truth")}
            {field("beta", "Failure probability β", "the chance the promise fails")}
            {field("maxQueries", "Submissions per team m", "default: daily cap × days")}
            {field("split", "Split constant c", "Theorem 2's, in (0, 1), default ½")}
          </>
        )}
        {input.mode === "practical" && (
          <>
            {field("sigma", "Noise σ", "the threshold's noise; a holdout answer gets 4σ")}
            {field("threshold", "Threshold T", "how far public and holdout may differ unchecked")}
            {field("budget", "Budget B₀", "holdout checks per team")}
            {field("maxQueries", "Submissions per team m", "default: daily cap × days")}
            {field("beta", "Failure probability β", "the chance the promise fails")}
          </>
        )}
        {input.mode === "recommended" && (
          <>
            {field("budget", "Budget B₀", "holdout checks per team")}
            {field("maxQueries", "Submissions per team m", "default: daily cap × days")}
            {field("beta", "Failure probability β", "the chance the promise fails")}
          </>
        )}
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {plan && (
        <div className="space-y-4">
          <div className="rounded-md border border-slate-200 bg-slate-50 p-4 text-sm">
            <p className="text-base">
              Each team may receive <strong data-testid="plan-budget">{plan.budget}</strong> holdout answers; noise σ = <strong data-testid="plan-sigma">{n4(plan.sigma)}</strong>,
              threshold T = <strong data-testid="plan-threshold">{n4(plan.threshold)}</strong>.
            </p>
            <p className="mt-1">
              Privacy per team (how much a team&apos;s whole budget can reveal about the holdout): ε<sub>DP</sub> = <span data-testid="plan-epsdp">{n4(plan.epsDp)}</span>, which
              under your correlation model is ε<sub>BDP</sub> = <span data-testid="plan-epsbdp">{n4(plan.epsBdp)}</span>. Effective holdout size (rows the correlation leaves
              independent) n<sub>eff</sub> = {n4(plan.nEff)}.{plan.scores && <> The scores&apos; bounds rest on {plan.scores.concentration.inequality}.</>}
            </p>
            <p className="mt-1" data-testid="plan-units">
              {metric.display.root ? (
                <>
                  σ, T and τ are in [0, 1] units of the mean scaled squared error, which ranks teams and is checked. Scores are shown as its root ({metric.title.toLowerCase()}),
                  which a deviation of τ moves by at most ±{plan.guarantee.tolerance === null ? "—" : n4(inUnits(plan.guarantee.tolerance))}.
                </>
              ) : (
                <>
                  σ, T and τ are entered in [0, 1] per-row units. In {metric.title.toLowerCase()} units, as scores are shown: σ = {n4(inUnits(plan.sigma))}, T ={" "}
                  {n4(inUnits(plan.threshold))}
                  {plan.guarantee.tolerance !== null && <>, τ = {n4(inUnits(plan.guarantee.tolerance))}</>}; holdout answers and leaderboard scores carry ±{" "}
                  {n4(inUnits(4 * Math.log(20) * plan.sigma))} (95 %: 4σ ln 20).
                </>
              )}
            </p>
            <p className={`mt-2 font-medium ${plan.guarantee.holds ? "text-emerald-700" : "text-amber-700"}`} data-testid="plan-guarantee">
              {plan.guarantee.explanation}
            </p>
            <p className="mt-1 text-slate-600" data-testid="plan-proofs">
              Theorem 2 (through Bayesian differential privacy):{" "}
              {plan.guarantee.byProof.bdp.holds ? `±${n4(plan.guarantee.byProof.bdp.tolerance!)}` : "no guarantee at these settings"}; the description-length count:{" "}
              {plan.guarantee.byProof.descriptionLength ? `±${n4(plan.guarantee.byProof.descriptionLength.tolerance)}` : "does not apply to this correlation model"}. The tighter is
              used.
            </p>
            {plan.scores && (
              <p className="mt-1" data-testid="plan-promise">
                Each score carries its own bound: a team never checked on the holdout is promised ±{n4(inUnits(plan.scores.byChecks[0].bound))} on every score it is shown;{" "}
                {plan.scores.byChecks
                  .slice(1)
                  .map((c) => `after ${c.checks} check${c.checks === 1 ? "" : "s"}, ±${n4(inUnits(c.bound))}`)
                  .join("; ")}
                .
              </p>
            )}
            <p className={`mt-1 ${plan.competition.holds ? "text-emerald-700" : "text-amber-700"}`} data-testid="plan-competition">
              {plan.competition.explanation}
            </p>
            {plan.remedies.length > 0 && (
              <div className="mt-2" data-testid="plan-remedies">
                <p className="font-medium">What would make the promise hold:</p>
                <ul className="list-disc pl-5">
                  {plan.remedies.map((r) => (
                    <li key={r.change}>{r.text}</li>
                  ))}
                </ul>
              </div>
            )}
            {!plan.exhaustive && (
              <p className="mt-2 text-amber-700" data-testid="plan-not-exhaustive">
                The exact quilt search stopped at its work limit (a very slowly mixing chain): these numbers are valid but more conservative than the model allows.
              </p>
            )}
          </div>
          <div className="space-y-3 rounded-md border border-slate-200 p-4 text-sm" data-testid="honest-teams">
            <p>
              <strong>What honest teams live with.</strong> An honest model&apos;s public and holdout scores differ only by sampling (sd {n4(plan.honest.gapSd)}). At these settings
              it is expected to be checked on the holdout <strong data-testid="honest-charges">{n4(plan.honest.expectedCharges)}</strong> times over its {plan.guarantee.maxQueries}{" "}
              submissions
              {plan.honest.expectedCharges >= 1 ? ", by the noise rather than by overfitting: raise T or lower σ" : ""}. Recommended for this holdout: σ ={" "}
              {n4(plan.honest.recommended.sigma)}, T = {n4(plan.honest.recommended.threshold)} ({n4(plan.honest.recommended.expectedCharges)} expected checks; a cheater&apos;s
              public score is then shown at most about T above its holdout score).
            </p>
            {!locked && input.mode !== "recommended" && (
              <button
                type="button"
                onClick={() => setInput({ ...input, mode: "recommended", budget: String(Math.max(1, plan.budget)) })}
                className="rounded-md border border-indigo-300 px-3 py-1.5 font-medium text-indigo-800 hover:bg-indigo-50"
              >
                Use recommended settings
              </button>
            )}
          </div>
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="space-y-1">
              <LineChart
                title="Largest budget against tolerance τ, by proof"
                xLabel="τ"
                yLabel="budget"
                series={[
                  { label: "Description-length count (recommended σ, T)", color: "#4f46e5", points: preview!.curves.budgetByTolerance.count },
                  { label: "Theorem 2", color: "#d97706", points: preview!.curves.budgetByTolerance.bdp },
                ]}
                marker={input.mode === "guarantee" ? Number(input.tolerance) : undefined}
              />
              {preview!.curves.budgetByTolerance.count.every((p) => p.y === 0) && preview!.curves.budgetByTolerance.bdp.every((p) => p.y === 0) && (
                <p className="text-xs text-amber-700">This holdout is too small for a formal guarantee at any τ ≤ 1; practical mode still limits what teams learn.</p>
              )}
            </div>
            {plan.competition.curve.length > 0 && (
              <LineChart
                title={`For anyone (${plan.competition.teams} teams): tolerance against the cap H on holdout answers in all; honest teams are expected to need ${n4(plan.competition.honestCharges)}`}
                points={plan.competition.curve.map((p) => ({ x: p.cap, y: Math.min(1, p.tolerance) }))}
                xLabel="H"
                yLabel="τ for everyone"
                marker={plan.competition.cap ?? undefined}
              />
            )}
            <LineChart title="ε_BDP spent by the full budget against noise σ" points={preview!.curves.epsBdpByNoise} xLabel="σ" yLabel="ε_BDP" marker={plan.sigma} />
            <BarChart
              title={`What the correlation costs at τ = ${n4(preview!.curves.tolerance)}: the ε_DP each calibration allows, and the budget it buys`}
              unit="ε_DP"
              bars={preview!.curves.budgetByCalibration.map((b) => ({
                label: b.label,
                value: b.epsDp ?? 0,
                text: b.epsDp === null ? "does not apply" : `${b.epsDp.toExponential(2)} · B ${b.budget}`,
              }))}
            />
          </div>
        </div>
      )}
      {plan && plan.budget > 0 && (
        <div className="space-y-3 rounded-md border border-slate-200 p-4" data-testid="attack-preview">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              <strong>Attack preview.</strong> Blum &amp; Hardt&apos;s boosting attack (random submissions, keep those that beat chance, submit their majority vote) on synthetic
              labels with this holdout&apos;s size and correlation. The truth is 0.5: anything above is overfitting the leaderboard.
            </p>
            <button
              type="button"
              onClick={runAttack}
              disabled={attack === "running"}
              className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60"
            >
              {attack === "running" ? "Attacking…" : "Run attack preview"}
            </button>
          </div>
          {attack && attack !== "running" && (
            <>
              <LineChart
                title="Reported accuracy of the attacker's majority vote"
                xLabel="attack submissions"
                yLabel="reported accuracy"
                yRange={[0.4, 0.8]}
                series={[
                  { label: "Plain holdout (other platforms)", color: "#dc2626", points: attack.plain },
                  { label: "This mechanism", color: "#4f46e5", points: attack.protected },
                ]}
              />
              <p className="text-xs text-slate-600">
                Simulated on {attack.rows.toLocaleString("en")} holdout rows; the full attack spent {attack.budgetSpent} of {attack.budget} holdout answers. A missing point means
                the budget was spent and no score was released.
              </p>
            </>
          )}
        </div>
      )}
      {!locked && (
        <div className="flex items-center gap-3">
          <button type="button" onClick={save} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
            Save mechanism
          </button>
          {saved && (
            <span role="status" className="text-sm text-emerald-700">
              {saved}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
