"use client";

import { useState } from "react";
import { Field } from "./field";
import type { LabelKind } from "@/lib/csv/solution";
import { METRIC_CATALOGUE, METRIC_NAMES, type MetricName } from "@/lib/metrics/types";

const LABELS: Record<LabelKind, string> = { class: "class labels", probability: "0/1 labels, probabilities", number: "numbers in a range" };
const METRICS = METRIC_NAMES.map((name) => [name, `${METRIC_CATALOGUE[name].title} (${LABELS[METRIC_CATALOGUE[name].input]})`] as const);

export type MetricChoice = { name: string; params?: { lo?: number; hi?: number } };

/**
 * The metric and, for the metrics over a label range, its lowest and highest label: the create form
 * and a draft's settings. The controls are named metric, lo and hi (metricFromForm reads them).
 */
export function MetricField({ idPrefix, initial, error }: { idPrefix: string; initial?: MetricChoice; error?: string }) {
  const [metric, setMetric] = useState<MetricName>((initial?.name as MetricName) ?? "accuracy");
  const ranged = METRIC_CATALOGUE[metric].params === "range";
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-metric`} className="block text-sm font-medium text-slate-700">
          Metric
        </label>
        <select
          id={`${idPrefix}-metric`}
          name="metric"
          value={metric}
          onChange={(e) => setMetric(e.target.value as MetricName)}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
        >
          {METRICS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {ranged && (
        <>
          <Field label="Label range: lowest" id={`${idPrefix}-lo`} name="lo" type="number" step="any" required defaultValue={initial?.params?.lo} error={error} />
          <Field label="Label range: highest" id={`${idPrefix}-hi`} name="hi" type="number" step="any" required defaultValue={initial?.params?.hi} />
        </>
      )}
    </div>
  );
}

/** The metric a MetricField's form holds, as the API takes it. */
export function metricFromForm(form: FormData): MetricChoice {
  const name = String(form.get("metric")) as MetricName;
  const num = (k: string) => (form.get(k) === "" || form.get(k) === null ? undefined : Number(form.get(k)));
  return METRIC_CATALOGUE[name].params === "range" ? { name, params: { lo: num("lo"), hi: num("hi") } } : { name };
}
