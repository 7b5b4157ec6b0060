"use client";

import { useState } from "react";
import { Field } from "./field";
import { formatInZone, useInBrowser, zoneName } from "./local-time";

const pad = (n: number) => String(n).padStart(2, "0");

/** A datetime-local input's value for `iso` in the viewer's zone (`inUtc`: in UTC). */
function inputValue(iso: string, inUtc: boolean): string {
  if (inUtc) return iso.slice(0, 16);
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * A moment an organizer sets (a start, a deadline), typed in the viewer's time zone, with the zone in
 * the label and, where it is not UTC, the moment in UTC under the input. The form reads the UTC
 * instant (ISO 8601, or "" when empty) from a hidden input of `name`. The server does not know the
 * viewer's zone: it renders the input in UTC, and so does the browser while hydrating; then the
 * viewer's zone takes over (as LocalTime does). A datetime-local value names no zone, and `new Date`
 * reads it in the viewer's: a time that does not exist there (skipped by summer time) moves forward.
 */
export function MomentField({
  label,
  name,
  id = name,
  initial = null,
  optional = false,
  error,
  required,
  disabled,
  onMoment,
}: {
  label: string;
  name: string;
  id?: string;
  initial?: string | null;
  optional?: boolean;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  onMoment?: (iso: string | null) => void;
}) {
  const inBrowser = useInBrowser();
  const [typed, setTyped] = useState<string | null>(null);
  const shown = typed ?? (initial ? inputValue(initial, !inBrowser) : "");
  const at = shown === "" ? null : inBrowser ? new Date(shown) : new Date(`${shown}:00Z`);
  const moment = at && !Number.isNaN(at.getTime()) ? at : null;
  const zone = inBrowser ? zoneName(moment ?? new Date(), undefined) : "UTC";
  const utc = moment && zone !== "UTC" ? formatInZone(moment.toISOString(), "datetime", "UTC") : undefined;
  return (
    <div>
      <Field
        label={`${label} (${zone}${optional ? ", optional" : ""})`}
        name={`${name}-local`}
        data-field={name}
        id={id}
        type="datetime-local"
        value={shown}
        required={required}
        disabled={disabled}
        error={error}
        hint={utc}
        onChange={(event) => {
          setTyped(event.target.value);
          const next = event.target.value === "" ? null : new Date(event.target.value);
          onMoment?.(next && !Number.isNaN(next.getTime()) ? next.toISOString() : null);
        }}
      />
      <input type="hidden" name={name} value={typed === null ? (initial ?? "") : (moment?.toISOString() ?? "")} />
    </div>
  );
}
