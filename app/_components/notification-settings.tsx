"use client";

import { useState } from "react";
import { callApi } from "./api-client";
import { FormError } from "./field";
import { BUTTON } from "./tones";
import { NOTIFICATION_KINDS, type NotificationKind, type NotificationSettings } from "@/lib/validation/accounts";

/** Which kinds of notification mail the account gets (PUT /api/v1/me/notifications); each mail's unsubscribe link turns its kind off too. */
export function NotificationSettingsForm({ settings }: { settings: NotificationSettings }) {
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();

  async function onSave(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const json = Object.fromEntries(Object.keys(NOTIFICATION_KINDS).map((k) => [k, data.get(k) === "on"]));
    const result = await callApi("/api/v1/me/notifications", { method: "PUT", json });
    setError(result.ok ? undefined : result.error.message);
    setSaved(result.ok ? "Saved." : undefined);
  }

  return (
    <form onSubmit={onSave} className="space-y-3 text-sm" aria-label="Notification mail">
      <FormError message={error} />
      <fieldset className="space-y-2">
        <legend className="font-medium">Mail me about</legend>
        {(Object.entries(NOTIFICATION_KINDS) as [NotificationKind, string][]).map(([kind, label]) => (
          <label key={kind} className="flex items-center gap-2">
            <input type="checkbox" name={kind} defaultChecked={settings[kind]} className="h-4 w-4 rounded border-slate-300" onChange={() => setSaved(undefined)} />
            {label.charAt(0).toUpperCase() + label.slice(1)}
          </label>
        ))}
      </fieldset>
      <div className="flex items-center gap-3">
        <button type="submit" className={BUTTON.primary}>
          Save notifications
        </button>
        <p role="status" className="text-emerald-700">
          {saved}
        </p>
      </div>
    </form>
  );
}
