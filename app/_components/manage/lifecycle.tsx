"use client";

import { useRouter } from "next/navigation";
import { callApi } from "../api-client";
import { ConfirmButton } from "../confirm-button";
import { sentence } from "@/lib/format";
import { BUTTON, NOTE } from "../tones";
import type { PublishChecklist } from "@/lib/responses";

const ITEMS = {
  deadline: { title: "Deadline", section: "settings" },
  solution: { title: "Solution", section: "solution" },
  correlation: { title: "Correlation model", section: "correlation" },
  mechanism: { title: "Mechanism", section: "mechanism" },
} as const;

/**
 * A draft's checklist (what publishing needs, each item done or what to do, linked to its section)
 * with Publish, once all is done, and Delete; a live competition's Close; a closed one's Reveal
 * (docs/mechanism.md §2.10). Each asks in a dialog;
 * Publish also asks the organizer to acknowledge, one box each, what the checklist says competitors
 * will live with (no formal guarantee, a model that ignores declared groups or states).
 */
export function Lifecycle({
  slug,
  status,
  checklist,
  revealed = false,
}: {
  slug: string;
  status: "draft" | "published" | "closed";
  checklist: PublishChecklist | null;
  /** a closed competition's solution, secret and answers are public */
  revealed?: boolean;
}) {
  const router = useRouter();

  async function act(method: "POST" | "DELETE", path: string, then: () => void, json?: unknown): Promise<string | undefined> {
    const result = await callApi(`/api/v1/competitions/${slug}${path}`, { method, json });
    if (!result.ok) return result.error.message;
    then();
    return undefined;
  }

  if (status === "published") {
    return (
      <ConfirmButton
        label="Close competition"
        look={BUTTON.secondary}
        confirmLook={BUTTON.danger}
        title="Close the competition now?"
        action={() => act("POST", "/close", () => router.refresh())}
      >
        <p>Submissions stop at once and the final standings are revealed: each team&apos;s final submissions scored exactly on the holdout. This cannot be undone.</p>
      </ConfirmButton>
    );
  }
  if (status === "closed") {
    return revealed ? (
      <p className="text-sm text-slate-700">The solution, the mechanism&apos;s secret and every answer are public: anyone can verify the board.</p>
    ) : (
      <ConfirmButton
        label="Reveal for verification"
        look={BUTTON.secondary}
        title="Reveal the solution, the secret and every answer?"
        action={() => act("POST", "/reveal", () => router.refresh())}
      >
        <p>
          Anyone will be able to download the solution as you uploaded it, the mechanism&apos;s secret and every team&apos;s answers, check them against the commitment published
          when the competition opened, and recompute every answer. The labels become public. This cannot be undone.
        </p>
      </ConfirmButton>
    );
  }
  if (status !== "draft" || !checklist) return null;
  return (
    <div className="space-y-4" data-testid="publish-checklist">
      <ul className="space-y-2 text-sm">
        {checklist.checks.map((check) => (
          <li key={check.item} className="flex gap-2" data-testid={`check-${check.item}`}>
            <span aria-hidden="true" className={`w-4 shrink-0 font-bold ${check.ok ? "text-emerald-700" : "text-red-700"}`}>
              {check.ok ? "✓" : "✗"}
            </span>
            <span>
              <span className="sr-only">{check.ok ? "Done: " : "To do: "}</span>
              <a href={`#${ITEMS[check.item].section}`} className="font-medium text-slate-900 hover:underline">
                {ITEMS[check.item].title}
              </a>
              : {check.ok ? check.detail : sentence(check.detail)}
            </span>
          </li>
        ))}
      </ul>
      {!checklist.ready && <p className={NOTE.warning}>Publishing opens once every item is done.</p>}
      {checklist.acknowledgments.length > 0 && (
        <div className={NOTE.warning} data-testid="acknowledgments">
          <p className="font-medium">Before you publish, read what competitors will live with:</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {checklist.acknowledgments.map((a) => (
              <li key={a.code}>{a.message}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        <ConfirmButton
          label="Publish"
          look={BUTTON.go}
          disabled={!checklist.ready}
          title="Publish the competition?"
          fields={
            checklist.acknowledgments.length > 0 && (
              <fieldset className="space-y-2 text-sm">
                <legend className="font-medium">Publishing asks you to acknowledge:</legend>
                {checklist.acknowledgments.map((a) => (
                  <label key={a.code} className="flex items-start gap-2">
                    <input type="checkbox" name="acknowledge" value={a.code} required className="mt-1" />
                    <span>{a.message}</span>
                  </label>
                ))}
              </fieldset>
            )
          }
          action={(form) => act("POST", "/publish", () => router.refresh(), { acknowledge: form.getAll("acknowledge") })}
        >
          <p>Competitors can join and submit from then on. The solution, the correlation model and the mechanism are locked; wording, deadline and daily cap can still change.</p>
        </ConfirmButton>
        <ConfirmButton
          label="Delete draft"
          look={BUTTON.secondary}
          confirmLook={BUTTON.danger}
          title="Delete this draft?"
          action={() => act("DELETE", "", () => router.push("/competitions"))}
        >
          <p>
            The draft <strong>{slug}</strong> is deleted with its solution, data files and settings. This cannot be undone.
          </p>
        </ConfirmButton>
      </div>
    </div>
  );
}
