/**
 * Characters that must never reach a terminal as themselves: C0 controls except tab and newline, DEL, C1
 * controls (U+0080–U+009F: U+009B is a one-byte CSI), and the Unicode bidi controls that reorder what is
 * shown (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), plus the line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The one neutralizer for terminal output (M-9.9): every string the CLI writes passes through it. Control
 * characters and escape sequences are made visible (ESC becomes "\x1b", a carriage return "\r", U+202E
 * "\u202e") so no text — provider output, tool names, stored rows, file names, history — can style,
 * move, retitle, clear or write the clipboard of the terminal; newlines and tabs stay. Never throws.
 */
export function safeTerminalText(text: unknown): string {
  let value: string;
  try {
    value = typeof text === 'string' ? text : String(text);
  } catch {
    value = '[unprintable value]';
  }
  return value.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0)!;
    if (code === 0x0d) return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A one-line label (spinner, prompt status): neutralized, and a newline shown as "\n" so it stays one line. */
export function safeLabel(text: unknown): string {
  return safeTerminalText(text).replace(/[\n\t]/g, (c) => (c === '\n' ? '\\n' : ' '));
}

/**
 * JSON for a terminal or a pipe: JSON.stringify escapes C0 controls but not DEL, C1 or bidi controls, so
 * those are written as `\u009b`, `\u202e`, … too (still the same JSON value).
 */
export function safeJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return text.replace(UNSAFE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
