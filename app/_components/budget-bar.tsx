/** The overfitting budget as a bar with "k of B left". */
export function BudgetBar({ remaining, initial }: { remaining: number; initial: number }) {
  const share = initial > 0 ? remaining / initial : 0;
  const color = share > 0.5 ? "bg-emerald-500" : share > 0.2 ? "bg-amber-500" : "bg-red-500";
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="budget">
      <div className="h-2 w-24 rounded bg-slate-200" role="meter" aria-valuemin={0} aria-valuemax={initial} aria-valuenow={remaining} aria-label="Overfitting budget left">
        <div className={`h-2 rounded ${color}`} style={{ width: `${share * 100}%` }} />
      </div>
      <span className="tabular-nums text-slate-700">
        {remaining} of {initial} left
      </span>
    </div>
  );
}
