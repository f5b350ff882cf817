import { describe, expect, it } from 'vitest';
import { MarkdownStream, rowsOf } from '../../src/cli/render/markdown-stream.js';
import { fitColumns, loadMarkdown } from '../../src/cli/render/markdown.js';
import { screenOf } from '../helpers/pty.js';

const ANSWERS: Record<string, string> = {
  'nested lists': 'Intro\n\n- a\n  - a1 with `x`\n  - a2\n- b **bold**\n\n1. one\n   1. sub\n2. two\n\nend\n',
  'a loose list': '1. one\n\n2. two\n\n3. three\n\nafter\n',
  'a list of 40 items, taller than the screen': Array.from(
    { length: 40 },
    (_, i) => `${i + 1}. item ${i + 1} with \`code\` and **bold**`,
  ).join('\n'),
  'a code block at the very end': 'Here:\n\n```js\nconst a = `x\ny`;\n/* c\n d */\n```',
  'headings, a quote and a rule': '# Title\n## Sub\ntext under *it*\n> quote line\n> more\n\n---\n\nfin',
  'Chinese paragraphs': `${'这是一个很长的中文段落，'.repeat(30)}\n\n好的。\n`,
  'a paragraph taller than the screen': `${'word '.repeat(500)}\n\nnext paragraph\n`,
  'a table taller than the screen': `| a | b |\n|---|---|\n${Array.from({ length: 30 }, (_, i) => `| r${i} | value ${i} |`).join('\n')}\n\nafter\n`,
  'a tilde fence holding a backtick line': '~~~\nplain\n```\nstill code\n~~~\nafter\n',
  'one line, no newline': 'Just one line',
  'steps between code blocks': '1. Install:\n\n```sh\nnpm i\n```\n\n2. Run:\n\n```sh\nnpm start\n```\n\n3. Done\n',
  'blank lines inside a code block and between loose items':
    'Code:\n\n```py\ndef f():\n\n\n    return 1\n\nx = f()\n```\n\n- a\n\n- b\n\n\n- c\n',
  'blank lines first, a heading straight into a list, a fence straight after text':
    '\n\n# Plan\n1. 第一步：读取 `config.ts`\n2. 第二步 **验证**\nThen:\n```ts\nconst a = 1;\n```\nand *emphasis\nacross lines* here.\n',
  'an item holding a paragraph and an indented code block': '1. Install\n\n   Run this:\n\n   ```sh\n   npm ci\n   ```\n\n2. Test\n',
  'a setext heading and tabs in code': 'Title\n=====\n\n```go\nfunc f() {\n\treturn\n}\n```\n',
  'Chinese mixed with code after a list (rows that wrap a column early)': `1. item 1 \`c1\`\n2. item 2 \`c2\`\n3. item 3 \`c3\`\n\n${'这是一段很长的中文说明，包含 `inline code` 和 *强调*。'.repeat(20)}`,
  'a line before a long mixed paragraph': `Intro\n\n${'这是一段很长的中文说明，包含 `inline code` 和 *强调*。'.repeat(20)}\n\nend\n`,
  'a 60-line block': `\`\`\`python\n${Array.from({ length: 60 }, (_, i) => `x_${i} = ${i}`).join('\n')}\n\`\`\`\ndone\n`,
};

for (const [ROWS, COLUMNS] of [
  [24, 70],
  [40, 120],
] as const) {
  describe(`a streamed answer ends on the screen exactly as the whole answer renders (${ROWS} rows, ${COLUMNS} columns)`, async () => {
    const markdown = await loadMarkdown(COLUMNS);
    const screen = { columns: () => COLUMNS, rows: () => ROWS };
    for (const [name, answer] of Object.entries(ANSWERS)) {
      it(name, () => {
        const whole = screenOf(markdown.render(answer), { rows: ROWS, columns: COLUMNS }).trimEnd();
        for (const size of [1, 3, 5, 11, 17, 1000]) {
          let written = '';
          const stream = new MarkdownStream(markdown, (text) => (written += text), screen);
          for (let i = 0; i < answer.length; i += size) stream.push(answer.slice(i, i + size));
          stream.flush();
          expect(screenOf(written, { rows: ROWS, columns: COLUMNS }).trimEnd(), `pieces of ${size}`).toBe(whole);
          // Nothing is ever erased above the top of the screen: every cursor-up stays within it.
          for (const [, rows] of written.matchAll(/\u001b\[(\d+)A/g)) expect(Number(rows)).toBeLessThan(ROWS - 1);
        }
      });
    }
  });
}

describe('the rows raw text takes on the screen', () => {
  it('counts a row a double-width character starts early, as the terminal wraps it', () => {
    // x + 59 wide characters fill 119 columns; the 60th does not fit in the last one and starts row 2,
    // 60 more fill it exactly, and y starts row 3 — where width / columns says 2 rows.
    const line = `x${'中'.repeat(119)}y`;
    expect(rowsOf(`${line}\n`, 120)).toBe(3);
    expect(screenOf(line, { columns: 120 }).split('\n')).toHaveLength(3);
    expect(rowsOf(line, 120)).toBe(2);
    // A row filled exactly keeps the cursor on it; the newline moves to the next.
    expect(rowsOf('a'.repeat(120), 120)).toBe(0);
    expect(rowsOf(`${'a'.repeat(120)}\n`, 120)).toBe(1);
    expect(rowsOf(`${'中'.repeat(60)}\nab`, 120)).toBe(1);
    // Emoji (two columns) and combining marks (none) through the full width rules.
    expect(rowsOf(`${'a'.repeat(119)}😀\n`, 120)).toBe(2);
    expect(rowsOf(`${'e\u0301'.repeat(120)}\n`, 120)).toBe(1);
  });
});

describe('table columns', () => {
  it('keep their natural widths when they fit, else narrow columns keep theirs and wide ones share the rest', () => {
    expect(fitColumns([5, 10, 7], 40)).toEqual([5, 10, 7]);
    expect(fitColumns([24, 84, 7], 60)).toEqual([24, 29, 7]);
    expect(fitColumns([50, 50], 41)).toEqual([21, 20]);
    expect(fitColumns([3, 100, 100], 30).reduce((a, b) => a + b)).toBe(30);
  });
});
