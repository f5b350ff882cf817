import { safeTerminalText } from '../../shared/terminal-text.js';

/**
 * The program's own styling that may reach a terminal besides text: SGR colours (picocolors, the markdown
 * renderer) and the few cursor moves that redraw a streamed answer (carriage return, cursor up, erase below,
 * erase line). Nothing else.
 */
const ALLOWED = /\u001b\[[0-9;]*m|\u001b\[\d*A|\u001b\[J|\u001b\[2K|\r/gu;
/** OSC 8 hyperlinks a renderer may add on some terminals: dropped, the link text stays. */
const HYPERLINK = /\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/gu;

/**
 * Text the program composed from already neutralized data and its own styling. Every part between the
 * allowed sequences still goes through the one neutralizer, so a slip (data styled before it was made
 * literal) shows as visible escapes instead of reaching the terminal.
 */
export function safeRichText(text: string): string {
  const value = text.replace(HYPERLINK, '');
  let out = '';
  let last = 0;
  for (const match of value.matchAll(ALLOWED)) {
    out += safeTerminalText(value.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + safeTerminalText(value.slice(last));
}
