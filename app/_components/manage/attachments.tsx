"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { callApi, uploadWithProgress } from "../api-client";
import { formatBytes } from "@/lib/format";
import type { AttachmentSummary, AttachmentUploadState } from "@/lib/responses";
import { FILE_INPUT } from "../tones";

type File = { id: string; filename: string; size: number };

/** Where an upload stands: its parts sent one at a time (docs/api.md#resumable-uploads). */
type Sending = { file: globalThis.File; upload: AttachmentUploadState; sent: number; status: "sending" | "paused" | "failed" | "completing" };

/** The upload id of a file this browser started to send, so that choosing the same file again resumes it. */
const remembered = (slug: string, file: globalThis.File) => `quiltboard-upload:${slug}:${file.name}:${file.size}:${file.lastModified}`;

export function Attachments({ slug, files }: { slug: string; files: File[] }) {
  const router = useRouter();
  const [sending, setSending] = useState<Sending | null>(null);
  const [done, setDone] = useState<AttachmentSummary | null>(null);
  const [error, setError] = useState<string>();
  const pause = useRef<AbortController | null>(null);
  const base = `/api/v1/competitions/${slug}/attachments`;

  /** Sends the parts the server does not have, one at a time, then completes the upload. */
  async function sendParts(file: globalThis.File, upload: AttachmentUploadState) {
    const have = new Set(upload.received);
    let sent = upload.receivedBytes;
    const controller = new AbortController();
    pause.current = controller;
    setSending({ file, upload, sent, status: "sending" });
    for (let n = 1; n <= upload.partCount; n++) {
      if (have.has(n)) continue;
      const slice = file.slice((n - 1) * upload.partBytes, n * upload.partBytes);
      const result = await uploadWithProgress({
        method: "PUT",
        url: `${base}/uploads/${upload.id}/parts/${n}`,
        body: slice,
        contentType: "application/octet-stream",
        signal: controller.signal,
        onProgress: (fraction) => setSending({ file, upload, sent: sent + fraction * slice.size, status: "sending" }),
      });
      if (!result.ok) {
        if (result.error.code === "aborted") return setSending({ file, upload, sent, status: "paused" });
        setError(`Part ${n} of ${upload.partCount}: ${result.error.message}`);
        return setSending({ file, upload, sent, status: "failed" });
      }
      sent += slice.size;
    }
    setSending({ file, upload, sent, status: "completing" });
    const completed = await callApi<AttachmentSummary>(`${base}/uploads/${upload.id}/complete`, { method: "POST" });
    localStorage.removeItem(remembered(slug, file));
    setSending(null);
    if (!completed.ok) return setError(completed.error.message);
    setDone(completed.data);
    router.refresh();
  }

  async function start(file: globalThis.File) {
    setError(undefined);
    setDone(null);
    const known = localStorage.getItem(remembered(slug, file));
    const resumed = known ? await callApi<AttachmentUploadState>(`${base}/uploads/${known}`, { method: "GET" }) : null;
    if (resumed?.ok) return sendParts(file, resumed.data);
    const started = await callApi<AttachmentUploadState>(`${base}/uploads`, { method: "POST", json: { name: file.name, size: file.size, contentType: file.type || undefined } });
    if (!started.ok) return setError(started.error.message);
    localStorage.setItem(remembered(slug, file), started.data.id);
    await sendParts(file, started.data);
  }

  /** Resumes (or retries a failed part): asks the server which parts arrived, and sends the others. */
  async function resume() {
    if (!sending) return;
    setError(undefined);
    const state = await callApi<AttachmentUploadState>(`${base}/uploads/${sending.upload.id}`, { method: "GET" });
    if (!state.ok) {
      setSending(null);
      return setError(state.error.message);
    }
    await sendParts(sending.file, state.data);
  }

  async function cancel() {
    if (!sending) return;
    pause.current?.abort();
    await callApi(`${base}/uploads/${sending.upload.id}`, { method: "DELETE" });
    localStorage.removeItem(remembered(slug, sending.file));
    setSending(null);
  }

  async function remove(id: string) {
    const result = await callApi(`${base}/${id}`, { method: "DELETE" });
    if (!result.ok) return setError(result.error.message);
    router.refresh();
  }

  const percent = sending ? Math.floor((100 * sending.sent) / sending.upload.size) : 0;
  const BUTTON = "rounded border border-slate-300 px-3 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50";

  return (
    <div className="space-y-3">
      {files.length > 0 ? (
        <ul className="divide-y divide-slate-100 text-sm">
          {files.map((f) => (
            <li key={f.id} className="flex items-center justify-between py-2">
              <a href={`${base}/${f.id}`} className="font-medium text-indigo-700 hover:underline">
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
        <input type="file" disabled={sending !== null} onChange={(e) => e.target.files?.[0] && start(e.target.files[0])} className={FILE_INPUT} />
      </label>
      {sending && (
        <div className="space-y-2">
          <progress max={100} value={percent} aria-label={`Uploading ${sending.file.name}`} className="h-2 w-full" />
          <p className="text-sm text-slate-700" aria-live="polite">
            {sending.status === "completing"
              ? `${sending.file.name}: all ${sending.upload.partCount} parts sent; checking the file…`
              : `${sending.file.name}: ${percent}% of ${formatBytes(sending.upload.size)}${sending.status === "paused" ? " (paused)" : ""}`}
          </p>
          {sending.status !== "completing" && (
            <div className="flex gap-2">
              {sending.status === "sending" && (
                <button type="button" className={BUTTON} onClick={() => pause.current?.abort()}>
                  Pause
                </button>
              )}
              {sending.status === "paused" && (
                <button type="button" className={BUTTON} onClick={resume}>
                  Resume
                </button>
              )}
              {sending.status === "failed" && (
                <button type="button" className={BUTTON} onClick={resume}>
                  Retry
                </button>
              )}
              <button type="button" className={BUTTON} onClick={cancel}>
                Cancel upload
              </button>
            </div>
          )}
        </div>
      )}
      {done && (
        <p className="text-sm text-slate-700" role="status">
          {done.filename} is attached ({formatBytes(done.size)}). SHA-256: <code className="break-all">{done.sha256}</code>
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
