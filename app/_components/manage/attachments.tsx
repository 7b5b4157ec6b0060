"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi, uploadWithProgress } from "../api-client";
import { formatBytes } from "@/lib/format";
import { FILE_INPUT } from "../tones";

type File = { id: string; filename: string; size: number };

export function Attachments({ slug, files }: { slug: string; files: File[] }) {
  const router = useRouter();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string>();

  async function upload(file: globalThis.File) {
    setError(undefined);
    const form = new FormData();
    form.append("file", file);
    setProgress(0);
    const result = await uploadWithProgress({ method: "POST", url: `/api/v1/competitions/${slug}/attachments`, body: form, onProgress: setProgress });
    setProgress(null);
    if (!result.ok) return setError(result.error.message);
    router.refresh();
  }

  async function remove(id: string) {
    const result = await callApi(`/api/v1/competitions/${slug}/attachments/${id}`, { method: "DELETE" });
    if (!result.ok) return setError(result.error.message);
    router.refresh();
  }

  return (
    <div className="space-y-3">
      {files.length > 0 ? (
        <ul className="divide-y divide-slate-100 text-sm">
          {files.map((f) => (
            <li key={f.id} className="flex items-center justify-between py-2">
              <a href={`/api/v1/competitions/${slug}/attachments/${f.id}`} className="font-medium text-indigo-700 hover:underline">
                {f.filename}
              </a>
              <span className="flex items-center gap-3">
                <span className="text-slate-600">{formatBytes(f.size)}</span>
                <button type="button" onClick={() => remove(f.id)} className="text-red-700 hover:underline" aria-label={`Remove ${f.filename}`}>
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No files yet. Attach training data for competitors to download.</p>
      )}
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Attach a file</span>
        <input type="file" disabled={progress !== null} onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])} className={FILE_INPUT} />
      </label>
      {progress !== null && <progress max={1} value={progress} aria-label="Upload progress" className="h-2 w-full" />}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
