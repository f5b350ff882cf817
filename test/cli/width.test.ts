import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { clipDisplay, renderTable } from '../../src/cli/render/table.js';
import { displayWidth, simpleWidth } from '../../src/cli/render/width.js';

// The width fast path must agree with string-width wherever it answers on its own (issue 14: the CLI
// starts without loading string-width unless the text needs it).
describe('displayWidth', () => {
  it('agrees with string-width on every code unit it measures itself', () => {
    const disagreements: string[] = [];
    let measured = 0;
    for (let c = 0; c <= 0xffff; c += 1) {
      const own = simpleWidth(c);
      if (own < 0) continue;
      measured += 1;
      const ch = String.fromCharCode(c);
      if (own !== stringWidth(ch)) disagreements.push(`U+${c.toString(16).padStart(4, '0')}: ${own} vs ${stringWidth(ch)}`);
    }
    expect(measured).toBeGreaterThan(39_000);
    expect(disagreements).toEqual([]);
  });

  it('measures mixed Chinese and English text, and hands emoji, marks and controls to string-width', () => {
    for (const text of [
      '',
      'use pnpm, not npm',
      '以后默认用 pnpm，不要用 npm。',
      '“quoted” — 全角：ＡＢＣ ｶﾀｶﾅ',
      '한국어 テスト',
      'café au lait',
      'e\u0301 combining',
      'emoji 👍🏽 and 👨‍👩‍👧',
      'soft\u00adhyphen',
      'zero\u200bwidth',
      'tab\there',
      '\u001b[31mred\u001b[0m',
      '𠮷 outside the BMP',
    ]) {
      expect(displayWidth(text), text).toBe(stringWidth(text));
    }
  });
});

describe('clipDisplay and renderTable', () => {
  /** The plain definition: the longest prefix whose width leaves a column for the ellipsis. */
  const reference = (text: string, width: number): string => {
    if (stringWidth(text) <= width) return text;
    let out = '';
    for (const ch of text) {
      if (stringWidth(out + ch) > width - 1) break;
      out += ch;
    }
    return `${out}…`;
  };

  it('cuts mixed text exactly where the character-by-character definition does', () => {
    const texts = [
      '以后默认用 pnpm，不要用 npm。',
      'plain ascii words only here',
      '混合 mixed 文本 with 👍🏽 emoji and e\u0301 marks',
      'ＡＢＣ全角',
    ];
    for (const text of texts)
      for (let width = 2; width <= 30; width += 1) expect(clipDisplay(text, width), `${text} @${width}`).toBe(reference(text, width));
  });

  it('renders 150,000 rows (no argument-spread limit) with every row fitting the width', () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => [
      `m${i.toString(32).padStart(8, '0')}`,
      'decision',
      `决定 ${i} uses pnpm workspaces`,
      '2026-11-30',
    ]);
    const text = renderTable(['ID', 'KIND', 'TITLE', 'UPDATED'], rows, [12, 10, 48, 19], 60, 2);
    const lines = text.split('\n');
    expect(lines).toHaveLength(150_001);
    expect(Math.max(...lines.slice(0, 1000).map((l) => stringWidth(l)))).toBeLessThanOrEqual(60);
  });
});
