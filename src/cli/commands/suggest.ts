/** The closest name by edit distance, if it is close enough to be a plausible typo. */
export function closest(input: string, names: readonly string[], maxDistance?: number): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(input.toLowerCase(), name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= (maxDistance ?? Math.max(2, Math.floor((best?.length ?? 0) / 2))) ? best : null;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
