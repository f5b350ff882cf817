import { InputEncodingError } from '../shared/errors.js';

/**
 * The whole of a piped stdin as text. `onSlow` is called once if the input has not ended after `slowMs`.
 * Input that is not UTF-8 throws InputEncodingError (nothing is replaced: the text becomes a RAW turn).
 */
export async function readAllStdin(
  input: NodeJS.ReadableStream = process.stdin,
  slow?: { afterMs: number; onSlow: () => void },
): Promise<string> {
  const chunks: Buffer[] = [];
  const timer = slow ? setTimeout(slow.onSlow, slow.afterMs) : null;
  timer?.unref();
  try {
    for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } finally {
    if (timer) clearTimeout(timer);
  }
  return utf8Text(Buffer.concat(chunks));
}

/** `bytes` as UTF-8 text, or InputEncodingError naming the first byte that is not valid UTF-8. */
export function utf8Text(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidByte(bytes);
    throw new InputEncodingError(bytes[offset] ?? 0, offset);
  }
}

/** Where the first ill-formed UTF-8 sequence starts (the end when a sequence is cut short there). */
function firstInvalidByte(bytes: Buffer): number {
  for (let at = 0; at < bytes.length;) {
    const b = bytes[at]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || at + length > bytes.length) return at;
    // The continuation bytes, and the one encoding of each code point (no overlong forms, no surrogates).
    const next = bytes[at + 1] ?? 0;
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (length > 1 && (next < low || next > high)) return at;
    for (let k = 2; k < length; k += 1) if ((bytes[at + k]! & 0xc0) !== 0x80) return at;
    at += length;
  }
  return bytes.length;
}

/**
 * The request of `cmd | autopatch-j ask "prompt"`: the prompt, then the piped text as a fenced block whose
 * fence is longer than any run of backticks inside it, so the text cannot close it early.
 */
export function withPipedText(prompt: string, piped: string): string {
  const text = piped.replace(/\s+$/, '');
  if (text.trim().length === 0) return prompt;
  if (prompt.trim().length === 0) return text;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${prompt}\n\n${fence}\n${text}\n${fence}`;
}
