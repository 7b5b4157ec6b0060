/**
 * The overfitting budget as a bar with "k of B left". `labelled` puts its name above it (where no
 * column heading names it); in a table's `narrow` column, below 640 px, it is "k/B" without the bar
 * (screen readers still hear "k of B left").
 */
export function BudgetBar({ remaining, initial, labelled = false, narrow = false }: { remaining: number; initial: number; labelled?: boolean; narrow?: boolean }) {
  const share = initial > 0 ? remaining / initial : 0;
  const color = share > 0.5 ? "bg-emerald-500" : share > 0.2 ? "bg-amber-500" : "bg-red-500";
  const bar = (
    <div className="flex items-center gap-2 text-sm" data-testid="budget">
      <div
        className={`h-2 w-24 shrink-0 rounded bg-slate-200 ${narrow ? "hidden sm:block" : ""}`}
        role="meter"
        aria-valuemin={0}
        aria-valuemax={initial}
        aria-valuenow={remaining}
        aria-valuetext={`${remaining} of ${initial} left`}
        aria-label="Overfitting budget left"
      >
        <div className={`h-2 rounded ${color}`} style={{ width: `${share * 100}%` }} />
      </div>
      {narrow && (
        <span aria-hidden="true" className="whitespace-nowrap tabular-nums text-slate-700 sm:hidden">
          {remaining}/{initial}
        </span>
      )}
      <span className={`whitespace-nowrap tabular-nums text-slate-700 ${narrow ? "sr-only sm:not-sr-only" : ""}`}>
        {remaining} of {initial} left
      </span>
    </div>
  );
  if (!labelled) return bar;
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-700">Overfitting budget</p>
      {bar}
    </div>
  );
}
