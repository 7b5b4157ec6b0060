/** A 3×3 quilt: the leaderboard's patches. */
export function Logo() {
  const cells = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const fill = ["#4f46e5", "#a5b4fc", "#4f46e5", "#a5b4fc", "#f59e0b", "#a5b4fc", "#4f46e5", "#a5b4fc", "#4f46e5"];
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
      {cells.map((i) => (
        <rect key={i} x={(i % 3) * 8 + 0.5} y={Math.floor(i / 3) * 8 + 0.5} width="7" height="7" rx="1.5" fill={fill[i]} />
      ))}
    </svg>
  );
}
