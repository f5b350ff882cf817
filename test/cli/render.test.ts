import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli/commands/registry.js';
import { renderList } from '../../src/cli/render/memory-views.js';
import { Spinner } from '../../src/cli/render/spinner.js';
import { wrapLine } from '../../src/cli/render/wrap.js';

describe('rendering for the terminal width', () => {
  it('the memory table fits 60 columns with Chinese titles (two columns per character)', () => {
    const items = [
      {
        id: 'm-abcdefgh01',
        kind: 'user_preference',
        title: '以后回答先给结论，然后再解释原因和可能的替代方案，并且给出代码示例',
        updatedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
      },
      {
        id: 'm-abcdefgh02',
        kind: 'project_decision',
        title: 'Use better-sqlite3 for the local Memory store and keep WAL mode on',
        updatedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
      },
    ] as Parameters<typeof renderList>[0];
    const text = renderList(items, 60);
    for (const line of text.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(60);
    expect(text).toContain('m-abcdefgh01');
  });

  it('wraps Chinese text between characters and English text between words', () => {
    expect(wrapLine('以后回答先给结论然后解释', 10).every((l) => stringWidth(l) <= 10)).toBe(true);
    expect(wrapLine('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps']);
  });

  it('/help fits 40 columns', () => {
    for (const line of helpText(40).split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(40);
  });

  it('the spinner shows the elapsed seconds and how to cancel', () => {
    let now = 1_000;
    const spinner = new Spinner(
      () => undefined,
      false,
      'Ctrl-C to cancel',
      () => now,
    );
    spinner.start('thinking…');
    now += 4_200;
    expect(spinner.line()).toMatch(/^. thinking… 4s · Ctrl-C to cancel$/);
  });
});
