"use client";

import { useSyncExternalStore } from "react";

function remaining(ms: number): string {
  if (ms <= 0) return "closed";
  const d = Math.floor(ms / 86_400_000);
  const h = Math.floor((ms % 86_400_000) / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  return d > 0 ? `${d} day${d === 1 ? "" : "s"} ${h} h left` : h > 0 ? `${h} h ${m} min left` : `${m} min left`;
}

// A clock that ticks once a minute; its snapshot is the current minute, so it is stable between ticks.
const subscribe = (tick: () => void) => {
  const timer = setInterval(tick, 15_000);
  return () => clearInterval(timer);
};
const minute = () => Math.floor(Date.now() / 60_000) * 60_000;

/** Time left until `until`; rendered in the browser only (the server's clock is not the reader's). */
export function Countdown({ until }: { until: string }) {
  const now = useSyncExternalStore(subscribe, minute, () => null);
  return <span>{now === null ? "" : remaining(new Date(until).getTime() - now)}</span>;
}
