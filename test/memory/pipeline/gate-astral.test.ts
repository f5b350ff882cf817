// M-9 (the background work ends), M-5.6: the gate's word matcher retries a match one code point later, never
// inside a surrogate pair, so an emoji or an astral character next to a word cannot hold the gate in a loop.
import { describe, expect, it } from 'vitest';
import { judgeConfirmation, judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';
import { Phrases, Span } from '../../../src/memory/pipeline/gate/words.js';

describe('M-9 an emoji or astral character beside a word ends the gate', () => {
  it('a word right after an emoji is a mid-word miss, then the scan moves on past the emoji', () => {
    // An emoji entry (a confirmation) right after a letter is a mid-word match: its retry used to land inside the
    // pair and find the same match again, for ever.
    const acts = new Phrases({ zh: [], en: ['👌', '🙏', 'get'] });
    expect(acts.find(new Span('好的👌 get 了')).map((h) => h.text)).toEqual(['get']);
    expect(acts.find(new Span('thx🙏 get it, 🙏')).map((h) => h.text)).toEqual(['get', '🙏']);
    expect(acts.find(new Span('𠮷👌 👌')).map((h) => h.index)).toEqual([5]);
  });

  it('short confirmations with emoji are judged, not looped on', () => {
    for (const text of ['好的👌 get 了', '行🙏 go with that', '收到😀 ok', '👍 就这么定', '可以🎉🎉 就按这个来']) {
      const verdict = judgeConfirmation(text, 0, text.length);
      expect(typeof verdict.confirms, text).toBe('boolean');
    }
    expect(judgeConfirmation('👍 就这么定', 0, '👍 就这么定'.length).confirms).toBe(true);
  });

  it('statements with emoji between words are judged', () => {
    const text = '以后👉回复都用中文 ok？😅 get 了';
    expect(() => judgeStatement(text, 0, text.length, 'user_preference')).not.toThrow();
    expect(judgeStatement('以后回复都用中文🙏', 0, '以后回复都用中文🙏'.length, 'user_preference')).toBeNull();
  });
});
