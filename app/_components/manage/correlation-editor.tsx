"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import type { CorrelationModelInput } from "@/lib/validation/calibration";

type Kind = CorrelationModelInput["kind"];

const KINDS: [Kind, string, string][] = [
  ["independent", "Independent rows", "Every holdout row is independent of the others."],
  ["groups", "Groups", "Rows in one group (the group column) may be arbitrarily correlated; groups are independent."],
  ["markov", "Markov chain", "Rows follow a Markov chain over states, one chain per group, in file or order-column order."],
  ["max-influence", "Max-influence bound", "You state a bound a on how much a row's Markov blanket reveals about it (Lemma 3)."],
];

function parseMatrix(text: string): number[][] {
  return text
    .trim()
    .split(/\n+/)
    .map((line) =>
      line
        .trim()
        .split(/[\s,;]+/)
        .map(Number),
    );
}

export function CorrelationEditor({
  slug,
  current,
  hasGroups,
  hasStates,
  locked,
}: {
  slug: string;
  current: CorrelationModelInput;
  hasGroups: boolean;
  hasStates: boolean;
  locked: boolean;
}) {
  const router = useRouter();
  // The saved model's fields, as the form's starting values for its kind.
  const groups = current.kind === "groups" ? current : undefined;
  const markov = current.kind === "markov" ? current : undefined;
  const influence = current.kind === "max-influence" ? current : undefined;
  const [kind, setKind] = useState<Kind>(current.kind);
  const [markovSource, setMarkovSource] = useState<"fit" | "enter">(markov?.transition ? "enter" : "fit");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    let model: CorrelationModelInput = { kind: "independent" };
    if (kind === "groups") model = f.get("maxGroupSize") ? { kind, maxGroupSize: Number(f.get("maxGroupSize")) } : { kind };
    if (kind === "markov") model = markovSource === "fit" ? { kind, fit: { alpha: Number(f.get("alpha")) } } : { kind, transition: parseMatrix(String(f.get("transition"))) };
    if (kind === "max-influence") model = { kind, bound: Number(f.get("bound")) };
    setPending(true);
    setError(undefined);
    const result = await callApi(`/api/v1/competitions/${slug}/correlation`, { method: "PUT", json: { model } });
    setPending(false);
    if (!result.ok) return setError(result.error.message);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <fieldset disabled={locked} className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">How are the holdout rows correlated?</legend>
        {KINDS.map(([value, label, help]) => (
          <label key={value} className="flex gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50">
            <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="mt-1" />
            <span>
              <span className="block font-medium">{label}</span>
              <span className="block text-sm text-slate-600">{help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {kind === "groups" && (
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Largest group {hasGroups ? "(leave empty to read it from the group column)" : ""}</span>
          <input
            name="maxGroupSize"
            type="number"
            min={1}
            defaultValue={groups?.maxGroupSize}
            disabled={locked}
            className="mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
      )}
      {kind === "markov" && (
        <div className="space-y-3 text-sm">
          <div className="flex gap-4">
            <label className="flex items-center gap-2">
              <input type="radio" name="source" checked={markovSource === "fit"} onChange={() => setMarkovSource("fit")} disabled={locked || !hasStates} />
              Fit P from the state column {hasStates ? "" : "(the solution has none)"}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="source" checked={markovSource === "enter"} onChange={() => setMarkovSource("enter")} disabled={locked} />
              Enter P
            </label>
          </div>
          {markovSource === "fit" ? (
            <label className="block">
              <span className="font-medium text-slate-700">Smoothing α (added to every transition count)</span>
              <input
                name="alpha"
                type="number"
                step="any"
                min={0}
                defaultValue={markov?.fit?.alpha ?? 1}
                disabled={locked}
                className="mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2"
              />
            </label>
          ) : (
            <label className="block">
              <span className="font-medium text-slate-700">Transition matrix P, one row per line</span>
              <textarea
                name="transition"
                rows={4}
                defaultValue={(
                  markov?.transition ?? [
                    [0.9, 0.1],
                    [0.1, 0.9],
                  ]
                )
                  .map((r) => r.join(" "))
                  .join("\n")}
                disabled={locked}
                className="mt-1 block w-full max-w-md rounded-md border border-slate-300 px-3 py-2 font-mono"
              />
            </label>
          )}
        </div>
      )}
      {kind === "max-influence" && (
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Bound a (nats)</span>
          <input
            name="bound"
            type="number"
            step="any"
            min={0}
            defaultValue={influence?.bound ?? 0.001}
            disabled={locked}
            className="mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {!locked && (
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
          {pending ? "Saving…" : "Save correlation model"}
        </button>
      )}
    </form>
  );
}
