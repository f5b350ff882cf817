/** Local date and time, to the second, for people. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return 'never';
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
