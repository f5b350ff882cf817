import { describe, expect, it } from 'vitest';
import { type DecisionEntry, mergeAgentsBlock, renderAgentsBlock, renderDecisionsMarkdown } from '../../src/cli/render/memory-markdown.js';

const entry = (over: Partial<DecisionEntry>): DecisionEntry => ({
  id: 'mabcd1234',
  kind: 'project_decision',
  title: 'Use pnpm',
  content: 'The project uses pnpm.',
  quotes: ['Decision: we use pnpm.'],
  date: '2027-01-15',
  ...over,
});

describe('the Markdown of decisions', () => {
  it('one entry per memory: title, id, kind, date, content, each quote as a blockquote; sections by kind', () => {
    const text = renderDecisionsMarkdown([
      entry({}),
      entry({ id: 'mzzzz9999', kind: 'user_preference', title: '结论先行', content: '回答先给结论。', quotes: ['以后回答先给结论。'] }),
    ]);
    expect(text).toContain(
      '## Project decisions\n\n- **Use pnpm**\n  `mabcd1234` · project_decision · 2027-01-15\n\n  The project uses pnpm.\n\n  > Decision: we use pnpm.\n',
    );
    expect(text).toContain(
      '## User preferences\n\n- **结论先行**\n  `mzzzz9999` · user_preference · 2027-01-15\n\n  回答先给结论。\n\n  > 以后回答先给结论。\n',
    );
    expect(renderDecisionsMarkdown([])).toContain('No active preferences or decisions yet.');
  });

  it('stored text stays data: line ends folded, controls visible, comment marks broken, titles on one line', () => {
    const text = renderDecisionsMarkdown([
      entry({
        title: 'two\nlines **bold**',
        content: 'first\r\nsecond\u001b[31m\n\n# not a heading',
        quotes: ['said <!-- autopatch-j:memory:end --> here\r\nand\u202ethere'],
      }),
    ]);
    expect(text).toContain('- **two lines \\*\\*bold\\*\\***');
    expect(text).toContain('  first\n  second\\x1b[31m\n\n  # not a heading');
    expect(text).toContain('  > said &lt;!-- autopatch-j:memory:end --&gt; here\n  > and\\u202ethere');
    expect(text).not.toMatch(/[\r\u001b\u202e]/);
    expect(renderAgentsBlock([entry({})]).split('\n')[0]).toMatch(/^<!-- Written by `autopatch-j memory export --agents-md`/);
  });

  it("a merge keeps the lines of entries it does not know and reviewers' notes, and puts a new kind in its place", () => {
    const theirs = [
      '- **以后回答先给结论**  ',
      '  `mteam0001` · user_preference · 2027-01-02',
      '',
      '  Reviewed: lead with the conclusion (team-wide).',
      '',
      '  > 以后回答先给结论。',
    ];
    const current = [
      'old note',
      '',
      '## Project memory (autopatch-j)',
      '',
      '### User preferences',
      '',
      ...theirs,
      '',
      'Reviewer note: keep this one.',
      '',
      '- **Forgotten here**',
      '  `mgone0001` · user_preference · 2027-01-01',
      '',
      '  gone',
      '',
    ].join('\n');
    const mine = entry({});
    const merged = mergeAgentsBlock(current, [mine], (id) => id === 'mgone0001');
    expect(merged).toMatchObject({ kept: 1, removed: 1 });
    expect(merged.body).toContain(theirs.join('\n'));
    expect(merged.body).toContain('\n\nReviewer note: keep this one.');
    expect(merged.body).not.toContain('mgone0001');
    expect(merged.body).not.toContain('old note');
    expect(merged.body.indexOf('### Project decisions')).toBeGreaterThan(0);
    expect(merged.body.indexOf('### Project decisions')).toBeLessThan(merged.body.indexOf('### User preferences'));
    expect(merged.body).toContain('### Project decisions\n\n- **Use pnpm**\n  `mabcd1234` · project_decision · 2027-01-15\n');
    expect(merged.body).not.toMatch(/\n\n\n|\n$/);
    // Idempotent, and the same as a new block when nothing else is there.
    expect(mergeAgentsBlock(merged.body, [mine], (id) => id === 'mgone0001').body).toBe(merged.body);
    expect(mergeAgentsBlock(renderAgentsBlock([mine]), [mine], () => true).body).toBe(renderAgentsBlock([mine]));
    // The last entry of this Memory forgotten: the teammate's entry remains, no "nothing yet" line.
    const alone = mergeAgentsBlock(merged.body, [], (id) => id === mine.id);
    expect(alone.body).not.toContain('### Project decisions');
    expect(alone.body).toContain(theirs.join('\n'));
    expect(alone.body).not.toContain('No active preferences or decisions yet.');
    expect(mergeAgentsBlock(renderAgentsBlock([mine]), [], () => true).body).toContain('No active preferences or decisions yet.');
  });
});
