import type { Metric } from "../metrics/types";
import { CsvReader, type CsvIssue, CsvValidationError } from "./reader";

/** What a submission is checked against: the solution's ids (→ row) and class names (→ code). */
export type SubmissionKey = { ids: Map<string, number>; classes: Map<string, number> | null };

const MAX_ISSUES = 20;

/**
 * A streaming parser and validator for submission files (SPEC §7): header `id,prediction` (any
 * order, any case), exactly one row for every solution id. Problems are reported with their line:
 * unknown or duplicate ids, a missing or non-numeric prediction, a probability outside [0, 1], and
 * at the end any ids that got no prediction. Returns predictions indexed by solution row: class
 * codes (−1 for a class the solution never uses, which simply scores as wrong) or numbers.
 */
export function createSubmissionParser(key: SubmissionKey, input: Metric["input"]) {
  const reader = new CsvReader();
  const rows = key.ids.size;
  const issues: CsvIssue[] = [];
  const seen = new Int32Array(rows); // line of the row's prediction, 0 = none yet
  const predictions = input === "class" ? new Int32Array(rows) : new Float64Array(rows);
  let idColumn = -1;
  let predictionColumn = -1;
  let width = 0;

  const problem = (line: number, message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ line, message });
  };

  function header(fields: string[], line: number) {
    const names = fields.map((f) => f.trim().toLowerCase());
    idColumn = names.indexOf("id");
    predictionColumn = names.indexOf("prediction");
    width = names.length;
    const missing = ["id", "prediction"].filter((c) => !names.includes(c));
    if (missing.length) problem(line, `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: the header must be id,prediction`);
    const unknown = names.filter((n) => n !== "id" && n !== "prediction");
    if (unknown.length) problem(line, `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: the header must be id,prediction`);
    if (issues.length) throw new CsvValidationError(issues);
  }

  function row(fields: string[], line: number) {
    if (fields.length !== width) return problem(line, `expected ${width} fields, found ${fields.length}`);
    const id = fields[idColumn];
    const r = key.ids.get(id);
    if (r === undefined) return problem(line, `id "${id}" is not in the test set`);
    if (seen[r]) return problem(line, `duplicate id "${id}" (first on line ${seen[r]})`);
    seen[r] = line;
    const raw = fields[predictionColumn].trim();
    if (raw === "") return problem(line, `empty prediction for id "${id}"`);
    if (input === "class") {
      predictions[r] = key.classes!.get(raw) ?? -1;
      return;
    }
    const value = Number(raw);
    if (!Number.isFinite(value)) return problem(line, `prediction must be a number, found "${fields[predictionColumn]}"`);
    if (input === "probability" && (value < 0 || value > 1)) return problem(line, `prediction must be a probability in [0, 1], found "${fields[predictionColumn]}"`);
    predictions[r] = value;
  }

  function consume(records: { fields: string[]; line: number }[]) {
    for (const rec of records) {
      if (idColumn < 0 && predictionColumn < 0 && width === 0) header(rec.fields, rec.line);
      else row(rec.fields, rec.line);
      if (issues.length >= MAX_ISSUES) throw new CsvValidationError(issues);
    }
  }

  return {
    push(text: string) {
      consume(reader.push(text));
    },
    end(): Int32Array | Float64Array {
      consume(reader.end());
      if (width === 0) throw new CsvValidationError([{ line: 0, message: "the file is empty: expected a header id,prediction and one row per test id" }]);
      if (issues.length === 0) {
        const missing: string[] = [];
        let count = 0;
        for (const [id, r] of key.ids) {
          if (seen[r]) continue;
          count++;
          if (missing.length < 3) missing.push(`"${id}"`);
        }
        if (count) problem(0, `${count} test id${count > 1 ? "s have" : " has"} no prediction, e.g. ${missing.join(", ")}`);
      }
      if (issues.length) throw new CsvValidationError(issues);
      return predictions;
    },
  };
}
