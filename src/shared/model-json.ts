import { jsonrepair } from 'jsonrepair';
import { ModelAnswerError } from './errors.js';

/**
 * The one reader of JSON answers from chat models (classifier, extraction, consolidation), tolerant in form
 * (INTERFACES.md §2): real models wrap the object in prose, ```JSON fences, `<think>` blocks or trailing
 * notes, and slip on syntax (trailing commas, comments, single quotes). The reader takes the single JSON
 * value out of the text and repairs syntax with `jsonrepair`; it never repairs an answer that was cut off
 * (the meaning of a truncated answer is unknown), and two different objects in one answer are ambiguous.
 */

export { ModelAnswerError };
export type ModelAnswerProblem = ModelAnswerError['problem'];

export interface ReadJson {
  value: unknown;
  /** Form repairs applied, for the diagnostics ("fence", "prose", "think_block", "syntax_repaired" …). */
  repairs: string[];
}

export interface ReadOptions {
  /** The provider's finish reason; "length" means the answer was cut off by the token limit. */
  finishReason?: string | null | undefined;
  /** Keys a real answer object has at its top level (or inside a wrapper); other objects in the prose are examples. */
  keys?: readonly string[];
}

// Reasoning blocks some models (Qwen3, DeepSeek R1 served raw, local models) put before the answer.
const THINK_BLOCK = /<(think|thinking|reasoning|thought)>[\s\S]*?<\/\1>/giu;
// A fence opens at the start of a line only: three backticks inside a JSON string are text.
const FENCE = /(?:^|\n)[ \t]*```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*```|$)/gu;

/** Reads the single JSON object (or array) of a model answer. Throws ModelAnswerError when there is none. */
export function readModelJson(text: string, options: ReadOptions = {}): ReadJson {
  if (options.finishReason === 'length') {
    throw new ModelAnswerError('truncated', 'the answer was cut off by the token limit (finish_reason "length")');
  }
  const repairs: string[] = [];
  let body = text;
  if (THINK_BLOCK.test(body)) {
    repairs.push('think_block');
    body = body.replace(THINK_BLOCK, ' ');
  }
  // An unclosed reasoning block at the start means the answer never left its reasoning.
  if (/^\s*<(think|thinking|reasoning)>/iu.test(body)) {
    throw new ModelAnswerError('truncated', 'the answer ends inside an unclosed reasoning block');
  }
  if (body.trim().length === 0) throw new ModelAnswerError('empty', 'the answer is empty');

  const fenced = [...body.matchAll(FENCE)].map((m) => m[2]!);
  const sources = fenced.length > 0 ? fenced : [body];
  if (fenced.length > 0) repairs.push('fence');
  const spans: { text: string; closed: boolean }[] = [];
  for (const source of sources) spans.push(...jsonSpans(source));
  if (spans.length === 0) throw new ModelAnswerError('no_json', 'the answer holds no JSON object');

  const values: unknown[] = [];
  let truncated = false;
  for (const span of spans) {
    if (!span.closed) {
      truncated = true;
      continue;
    }
    const parsed = parseSpan(span.text);
    if (parsed === undefined) continue;
    if (parsed.repaired && !repairs.includes('syntax_repaired')) repairs.push('syntax_repaired');
    values.push(parsed.value);
  }
  const answers = options.keys ? values.filter((v) => looksLikeAnswer(v, options.keys!)) : values;
  // Only pieces of JSON survived and the answer itself was not closed: it was cut off.
  if (truncated && options.keys && answers.length === 0) {
    throw new ModelAnswerError('truncated', 'the JSON in the answer is not closed (the answer was cut off)');
  }
  const distinct: unknown[] = [];
  for (const value of answers.length > 0 ? answers : values) {
    const key = JSON.stringify(value);
    if (!distinct.some((d) => JSON.stringify(d) === key)) distinct.push(value);
  }
  if (distinct.length === 0) {
    if (truncated) throw new ModelAnswerError('truncated', 'the JSON in the answer is not closed (the answer was cut off)');
    throw new ModelAnswerError('no_json', 'the answer holds no readable JSON object');
  }
  if (distinct.length > 1) throw new ModelAnswerError('ambiguous', `the answer holds ${distinct.length} different JSON objects`);
  const whole = sources.length === 1 && spans.length === 1 && sources[0]!.trim() === spans[0]!.text.trim();
  if (!whole) repairs.push('prose');
  return { value: distinct[0], repairs };
}

function looksLikeAnswer(value: unknown, keys: readonly string[]): boolean {
  // A bare list of candidates/operations; an empty `[]` in prose is not an answer.
  if (Array.isArray(value)) return value.length > 0 && value.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (value === null || typeof value !== 'object') return false;
  const own = Object.keys(value).map(snakeCase);
  if (own.some((k) => keys.includes(k))) return true;
  // A wrapper ({"result": {...}}) around a real answer.
  return Object.values(value).some(
    (inner) => inner !== null && typeof inner === 'object' && looksLikeAnswer(inner, keys) && !Array.isArray(inner),
  );
}

function parseSpan(text: string): { value: unknown; repaired: boolean } | undefined {
  try {
    return { value: JSON.parse(text), repaired: false };
  } catch {
    // Fall through to the repair: only for text that is plainly meant as JSON.
  }
  if (!/["':]/u.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(jsonrepair(text));
    if (value === null || typeof value !== 'object') return undefined;
    return { value, repaired: true };
  } catch {
    return undefined;
  }
}

/**
 * Top-level `{…}` / `[…]` spans of a text, string-aware. A span still open at the end of the text is
 * reported unclosed: that is a cut-off answer, never something to repair.
 */
function jsonSpans(text: string): { text: string; closed: boolean }[] {
  const out: { text: string; closed: boolean }[] = [];
  let depth = 0;
  let start = -1;
  let quote: string | null = null;
  let escaped = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (depth === 0) {
      if (c === '{' || (c === '[' && /^\[\s*[{\]]/u.test(text.slice(i, i + 40)))) {
        depth = 1;
        start = i;
        quote = null;
      }
      continue;
    }
    if (quote !== null) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === quote || (c === '\n' && quote === "'")) quote = null;
      continue;
    }
    if (c === '"') quote = '"';
    else if (c === "'" && /[\s,:[{]/u.test(text[i - 1] ?? '')) quote = "'";
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) {
        out.push({ text: text.slice(start, i + 1), closed: true });
        start = -1;
      }
    }
  }
  if (depth > 0 && start >= 0) {
    // Still open at the end: cut off — or a stray "{" in prose swallowed what follows, so look inside too.
    out.push({ text: text.slice(start), closed: false }, ...jsonSpans(text.slice(start + 1)));
  }
  return out;
}

/** camelCase and kebab-case keys to the contract's snake_case. */
export function snakeCase(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/gu, '$1_$2')
    .replace(/[-\s]+/gu, '_')
    .toLowerCase();
}
