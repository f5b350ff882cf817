import { safeJson } from '../shared/terminal-text.js';

/**
 * `--json` output: timestamps (fields named `…At` holding epoch milliseconds) become ISO-8601 strings,
 * so scripts never guess the unit or the zone.
 */
export function toJsonOutput(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonOutput);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = /At$/.test(key) && typeof v === 'number' && Number.isFinite(v) ? new Date(v).toISOString() : toJsonOutput(v);
  }
  return out;
}

/** `--json` text: ISO timestamps, and C1/bidi controls escaped (still the same JSON value). */
export function jsonText(value: unknown): string {
  return `${safeJson(toJsonOutput(value))}\n`;
}
