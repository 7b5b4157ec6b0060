import { sentence } from "@/lib/format";

/**
 * Calls the app's own REST API from the browser (the session cookie authenticates): every write a
 * page makes goes through here (or uploadWithProgress), to the same endpoints as any other client.
 */
export type ApiError = { code: string; message: string; details?: unknown };

/** The API's error as the pages show it: its message as a sentence. */
const shown = (error: ApiError): ApiError => ({ ...error, message: sentence(error.message) });

export async function callApi<T>(
  path: string,
  init: { method: string; json?: unknown; body?: BodyInit; headers?: Record<string, string>; cache?: RequestCache },
): Promise<{ ok: true; data: T } | { ok: false; error: ApiError }> {
  const response = await fetch(path, {
    method: init.method,
    cache: init.cache,
    headers: init.json === undefined ? init.headers : { "content-type": "application/json", ...init.headers },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });
  const payload = await response.json().catch(() => ({ error: { code: "bad_response", message: `The server answered ${response.status}.` } }));
  return response.ok ? { ok: true, data: payload as T } : { ok: false, error: shown(payload.error as ApiError) };
}

/** An error's messages by field, from its details (zod's issues, each with the path of its field) about `fields`: what a form shows beside each field. */
export function fieldErrors(error: ApiError, fields: string[]): Record<string, string> {
  const details = Array.isArray(error.details) ? (error.details as { path?: string; message: string }[]) : [];
  return Object.fromEntries(details.filter((d) => d.path !== undefined && fields.includes(d.path)).map((d) => [d.path!, d.message]));
}

/**
 * Uploads a body with XMLHttpRequest (fetch cannot report upload progress), calling `onProgress`
 * with the fraction sent, and resolves with the parsed JSON answer; `signal` aborts it (resolving
 * with the error code "aborted").
 */
export function uploadWithProgress<T>(options: {
  method: string;
  url: string;
  body: Blob | FormData;
  contentType?: string;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}): Promise<{ ok: true; data: T } | { ok: false; error: ApiError }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method, options.url);
    if (options.contentType) xhr.setRequestHeader("content-type", options.contentType);
    xhr.upload.onprogress = (e) => e.lengthComputable && options.onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = { error: { code: "bad_response", message: `The server answered ${xhr.status}.` } };
      }
      resolve(xhr.status < 300 ? { ok: true, data: payload as T } : { ok: false, error: shown((payload as { error: ApiError }).error) });
    };
    xhr.onerror = () => resolve({ ok: false, error: { code: "network", message: "The upload failed: check your connection and try again." } });
    xhr.onabort = () => resolve({ ok: false, error: { code: "aborted", message: "The upload was paused." } });
    options.signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(options.body);
  });
}
