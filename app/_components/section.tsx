import type { ReactNode } from "react";

/**
 * A section of a page: an h2 the section is labelled by, a line of description, the content. A
 * "card" (the default) sits on a white panel; a "plain" section on the page itself.
 */
export function Section({
  id,
  title,
  description,
  variant = "card",
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  variant?: "card" | "plain";
  children: ReactNode;
}) {
  const look = variant === "card" ? "space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" : "space-y-3";
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className={look}>
      <div>
        <h2 id={`${id}-heading`} className={variant === "card" ? "text-lg font-semibold" : "text-xl font-semibold"}>
          {title}
        </h2>
        {description && <p className="text-sm text-slate-600">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** A page that is one narrow card under its h1: sign-in, sign-up, the password and verification pages. */
export function PageCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <div>
        <h1 className="text-xl font-semibold">{title}</h1>
        {intro && <p className="mt-1 text-sm text-slate-600">{intro}</p>}
      </div>
      {children}
    </div>
  );
}
