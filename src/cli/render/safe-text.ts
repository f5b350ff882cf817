/**
 * M-9.9: provider text is shown literally. Control characters and terminal escape sequences are made
 * visible (ESC becomes "\x1b", a carriage return "\r", …) so a provider body can neither style nor
 * overwrite the terminal; newlines and tabs stay. Never throws.
 */
export function safeTerminalText(text: unknown): string {
  let value: string;
  try {
    value = typeof text === 'string' ? text : String(text);
  } catch {
    value = '[unprintable value]';
  }
  // C0 controls except \t and \n, DEL, C1 controls, and Unicode bidi overrides that reorder what is shown.
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => {
    const code = c.codePointAt(0)!;
    if (code === 0x0d) return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
