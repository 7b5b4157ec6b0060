import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useFocusOn } from "./focus";
import { sentence } from "@/lib/format";
import { BUTTON, NOTE } from "./tones";

type Labelled = { label: string; name: string; error?: string; hint?: string; id?: string; className?: string };

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500 aria-[invalid]:border-red-500 disabled:bg-slate-50";

/**
 * A label above a control; below it a hint said before anyone types (a password's minimum length)
 * and the control's error, both read by screen readers with the control.
 */
function Labelled({
  label,
  id,
  error,
  hint,
  className,
  control,
}: {
  label: string;
  id: string;
  error?: string;
  hint?: string;
  className?: string;
  control: (aria: object) => ReactNode;
}) {
  const [errorId, hintId] = [`${id}-error`, `${id}-hint`];
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`space-y-1 ${className ?? ""}`}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {control({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, className: CONTROL })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

/** A labelled input; `id` defaults to the name, `className` goes to the wrapper (a grid span). */
export function Field({ label, name, error, hint, id = name, className, ...input }: InputHTMLAttributes<HTMLInputElement> & Labelled) {
  return <Labelled label={label} id={id} error={error} hint={hint} className={className} control={(aria) => <input name={name} {...aria} {...input} />} />;
}

/** A labelled multi-line text box, like Field. */
export function TextAreaField({ label, name, error, hint, id = name, className, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled) {
  return <Labelled label={label} id={id} error={error} hint={hint} className={className} control={(aria) => <textarea name={name} {...aria} {...area} />} />;
}

/** Moves the focus to the first field of `form` named in `errors`, so its error is read out with it. */
export function focusFirstError(form: HTMLFormElement, errors: Record<string, string>): void {
  // A field whose value a hidden input carries (MomentField) names its visible control with data-field.
  const first = Object.keys(errors)
    .map((name) => form.querySelector<HTMLElement>(`[data-field="${CSS.escape(name)}"], [name="${CSS.escape(name)}"]:not([type="hidden"])`))
    .find((element) => element !== null);
  first?.focus();
}

export function SubmitButton({ children, pending }: { children: string; pending: boolean }) {
  return (
    <button type="submit" disabled={pending} className={`w-full ${BUTTON.primary}`}>
      {pending ? "Please wait…" : children}
    </button>
  );
}

/** A form's error above it: announced, and it takes the focus when it appears. */
export function FormError({ message }: { message?: string }) {
  const ref = useFocusOn<HTMLParagraphElement>(message);
  if (!message) return null;
  return (
    <p ref={ref} tabIndex={-1} role="alert" className={NOTE.error}>
      {message}
    </p>
  );
}
