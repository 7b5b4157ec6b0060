"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { Field, FormError, TextAreaField } from "../field";
import { BUTTON } from "../tones";

/** Post an announcement to the Overview, mailed to every participant who did not turn announcements off. */
export function AnnouncementForm({ slug }: { slug: string }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [posted, setPosted] = useState<string>();

  async function onPost(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = await callApi(`/api/v1/competitions/${slug}/announcements`, { method: "POST", json: { title: data.get("title"), body: data.get("body") } });
    if (!result.ok) return (setError(result.error.message), setPosted(undefined));
    setError(undefined);
    setPosted("Posted and mailed to the participants.");
    form.reset();
    router.refresh();
  }

  return (
    <form onSubmit={onPost} className="space-y-3 text-sm" aria-label="Post an announcement">
      <FormError message={error} />
      <Field label="Subject" name="title" id="announcement-title" required minLength={3} maxLength={120} />
      <TextAreaField label="Announcement (Markdown)" name="body" id="announcement-body" required rows={5} maxLength={20000} />
      <div className="flex items-center gap-3">
        <button type="submit" className={BUTTON.primary}>
          Post and mail
        </button>
        <p role="status" className="text-emerald-700">
          {posted}
        </p>
      </div>
    </form>
  );
}
