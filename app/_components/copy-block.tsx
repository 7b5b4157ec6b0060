"use client";

import { useState } from "react";
import { BUTTON } from "./tones";

const CODE = "overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-800";
const WRAPPED = "whitespace-pre-wrap break-all rounded-md bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-800";

/**
 * Lines to paste into a terminal or a notebook, with a button that copies them (the clipboard API;
 * where the page may not use it, the lines stay there to select by hand) and says so.
 */
/** `label` names the lines after "Copy": "the command lines". `wrap` breaks a long line (a hash) where the screen ends rather than scrolling it. */
export function CopyBlock({ label, lines, wrap = false, testId }: { label: string; lines: string[]; wrap?: boolean; testId?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const text = lines.join("\n");
  return (
    <div className="space-y-1">
      <pre className={wrap ? WRAPPED : CODE} tabIndex={0} aria-label={label} data-testid={testId}>
        {text}
      </pre>
      <div className="flex items-center gap-3">
        <button
          type="button"
          className={BUTTON.secondary}
          onClick={() =>
            navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          Copy {label}
        </button>
        <span role="status" className="text-xs text-slate-600">
          {copied === true ? "Copied." : copied === false ? "This browser did not let the page copy: select the lines and copy them." : ""}
        </span>
      </div>
    </div>
  );
}
