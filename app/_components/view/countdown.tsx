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
const minute = (t: number) => Math.floor(t / 60_000) * 60_000;

/**
 * Time left until `until`. The server renders it from its own clock (`now`), so the page arrives
 * with the text in place and nothing moves when the script starts; the browser's clock takes over
 * after hydration and ticks each minute.
 */
export function Countdown({ until, now }: { until: string; now: string }) {
  const at = useSyncExternalStore(
    subscribe,
    () => minute(Date.now()),
    () => minute(Date.parse(now)),
  );
  return <time dateTime={until}>{remaining(Date.parse(until) - at)}</time>;
}
