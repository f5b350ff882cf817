import { describe, expect, it } from 'vitest';
import { safeTerminalText } from '../../src/shared/terminal-text.js';

describe('M-9.9 provider text prints literally', () => {
  it('neutralizes escape sequences and control characters but keeps markup-like text as is', () => {
    const hostile = '[bold red]boom[/] <b>x</b> \u001b[31mred\u001b[0m \u001b]0;title\u0007 line\rover \u0000 \u202eevil';
    const shown = safeTerminalText(hostile);
    expect(shown).toBe('[bold red]boom[/] <b>x</b> \\x1b[31mred\\x1b[0m \\x1b]0;title\\x07 line\\rover \\x00 \\u202eevil');
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('keeps newlines, tabs and Chinese text, and never throws on odd values', () => {
    expect(safeTerminalText('第一行\n\tsecond')).toBe('第一行\n\tsecond');
    expect(
      safeTerminalText({
        toString: () => {
          throw new Error('bad');
        },
      }),
    ).toBe('[unprintable value]');
    expect(safeTerminalText(42)).toBe('42');
  });
});
