import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
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
