// Small timing helpers for the benchmark.
import { performance } from 'node:perf_hooks';

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** Runs fn once per input and returns p50/p95/p99 in microseconds. */
export function measure(inputs, fn, { warmup = 20 } = {}) {
  for (let i = 0; i < Math.min(warmup, inputs.length); i += 1) fn(inputs[i], i);
  const times = [];
  for (let i = 0; i < inputs.length; i += 1) {
    const start = performance.now();
    fn(inputs[i], i);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}

export function fmt(us) {
  if (!Number.isFinite(us)) return '-';
  return us >= 100 ? Math.round(us).toLocaleString('en-US') : us.toFixed(1);
}

/** Like measure, for an async fn: one call at a time, each awaited. */
export async function measureAsync(inputs, fn, { warmup = 20 } = {}) {
  for (let i = 0; i < Math.min(warmup, inputs.length); i += 1) await fn(inputs[i], i);
  const times = [];
  for (let i = 0; i < inputs.length; i += 1) {
    const start = performance.now();
    await fn(inputs[i], i);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}
