"use client";

import { type ReactNode, useId, useRef, useState } from "react";
import { FormError } from "./field";
import { BUTTON } from "./tones";

/**
 * A button that asks before it acts: it opens a modal dialog (the browser's own <dialog>: focus
 * moves into it, Escape cancels, focus returns to the button) that says what will happen, may ask
 * for more (`fields`: controls named in the form data), and runs `action` on confirmation. An error
 * the action returns is shown in the dialog, which stays open; success closes it.
 */
export function ConfirmButton({
  label,
  accessibleLabel,
  look,
  title,
  children,
  fields,
  confirmLabel = label,
  confirmLook = look,
  action,
  disabled,
}: {
  label: string;
  /** the opening button's name for screen readers, when `label` alone is ambiguous (a row of buttons) */
  accessibleLabel?: string;
  look: string;
  title: string;
  /** what will happen, in words */
  children: ReactNode;
  fields?: ReactNode;
  /** the confirming button's label (the opening button's unless given) */
  confirmLabel?: string;
  confirmLook?: string;
  action: (form: FormData) => Promise<string | undefined>;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const id = useId();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const problem = await action(new FormData(form));
    setPending(false);
    setError(problem);
    if (!problem) {
      form.reset();
      dialog.current?.close();
    }
  }

  return (
    <>
      <button
        type="button"
        className={look}
        aria-label={accessibleLabel}
        disabled={disabled}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
      >
        <form onSubmit={onSubmit} className="space-y-4 p-6">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          <div id={`${id}-body`} className="space-y-2 text-sm text-slate-700">
            {children}
          </div>
          {fields}
          <FormError message={error} />
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" className={BUTTON.secondary} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={confirmLook} disabled={pending}>
              {pending ? "Please wait…" : confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
