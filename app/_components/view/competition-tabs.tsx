"use client";

import Link from "../link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export type Tab = { href: string; label: string; /** deeper pages that belong to this tab (a team's page to the leaderboard) */ within?: string };

/**
 * The competition's sections as links (each has its own address, so a tab can be bookmarked and
 * shared, and Tab and Enter reach it); the current one is marked for screen readers with
 * aria-current. On a narrow screen the row scrolls sideways, the current tab in view. `label` names
 * the navigation landmark (the competition's tabs; the manage pages' Setup and Operations).
 */
export function CompetitionTabs({ tabs, label = "Competition" }: { tabs: Tab[]; label?: string }) {
  const pathname = usePathname();
  const strip = useRef<HTMLElement>(null);
  const current = useRef<HTMLAnchorElement>(null);
  // Scrolls the row, not the page, and leaves where Tab starts alone (scrollIntoView moved it to the tab).
  useEffect(() => {
    const [row, tab] = [strip.current, current.current];
    const hidden = row && tab ? tab.getBoundingClientRect().right - row.getBoundingClientRect().right : 0;
    if (hidden > 0) row!.scrollLeft += hidden + 16;
  }, [pathname]);
  return (
    <nav ref={strip} aria-label={label} className="-mx-4 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0">
      <ul className="flex gap-1">
        {tabs.map((tab) => {
          const here = pathname === tab.href || (tab.within !== undefined && pathname.startsWith(tab.within));
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                ref={here ? current : undefined}
                aria-current={here ? "page" : undefined}
                className={`-mb-px inline-block whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium ${here ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"}`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
