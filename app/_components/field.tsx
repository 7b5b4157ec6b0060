import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

type Labelled = { label: string; name: string; error?: string; id?: string; className?: string };

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500 aria-[invalid]:border-red-500 disabled:bg-slate-50";

/** A label above a control, with the control's error announced to screen readers. */
function Labelled({ label, id, error, className, control }: { label: string; id: string; error?: string; className?: string; control: (aria: object) => ReactNode }) {
  const errorId = `${id}-error`;
  return (
    <div className={`space-y-1 ${className ?? ""}`}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {control({ id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined, className: CONTROL })}
      {error && (
        <p id={errorId} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled input; `id` defaults to the name, `className` goes to the wrapper (a grid span). */
export function Field({ label, name, error, id = name, className, ...input }: InputHTMLAttributes<HTMLInputElement> & Labelled) {
  return <Labelled label={label} id={id} error={error} className={className} control={(aria) => <input name={name} {...aria} {...input} />} />;
}

/** A labelled multi-line text box, like Field. */
export function TextAreaField({ label, name, error, id = name, className, ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled) {
  return <Labelled label={label} id={id} error={error} className={className} control={(aria) => <textarea name={name} {...aria} {...area} />} />;
}

export function SubmitButton({ children, pending }: { children: string; pending: boolean }) {
  return (
    <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
      {pending ? "Please wait…" : children}
    </button>
  );
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {message}
    </p>
  );
}
