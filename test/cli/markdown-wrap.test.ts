import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { loadMarkdown } from '../../src/cli/render/markdown.js';

// Paragraphs, headings, list items and quotes wrap by display width (a Chinese character takes two columns),
// at the break opportunities of the Unicode line breaking rules: between Chinese characters, never before
// closing punctuation such as "。" or "，", and at spaces in English.
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');
const PARAGRAPH = '这是一段很长的中文说明，包含 `inline code` 和 *强调*。'.repeat(6);
const ITEM = '列表项的文字很长很长，需要换行才能显示完整，包含 `code` 和 **粗体**。'.repeat(3);
const CLOSING = /^\s*[。，、；：？！）」』】》”’]/;

describe('answers wrap by display width', () => {
  for (const width of [70, 120]) {
    it(`at ${width} columns no line is wider than the terminal, none starts with closing punctuation`, async () => {
      const markdown = await loadMarkdown(width);
      const answer =
        `${PARAGRAPH}\n\n1. ${ITEM}\n2. short\n   - nested ${ITEM}\n\n# 标题${'很长的标题文字'.repeat(12)}\n\n` +
        `> 引用：${'引用的文字也要按宽度换行，'.repeat(8)}\n\nEnglish ${'words wrap at spaces, '.repeat(12)}end.\n`;
      const lines = plain(markdown.render(answer)).split('\n');
      for (const line of lines) {
        expect(stringWidth(line), line).toBeLessThanOrEqual(width);
        expect(line, line).not.toMatch(CLOSING);
      }
      // Nothing is lost or doubled: every sentence is there once, wherever the lines broke.
      const joined = lines.join('').replace(/\s+/g, '');
      expect(joined.match(/这是一段很长的中文说明，包含inlinecode和强调。/g)).toHaveLength(6);
      expect(joined.split('列表项的文字很长很长').length - 1).toBe(6);
      expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(`English ${'words wrap at spaces, '.repeat(12)}end.`);
      // The lines are used: a wrapped Chinese line is at most one character short of the width it has.
      const paragraphLines = lines.slice(0, lines.indexOf(''));
      expect(paragraphLines.length).toBeGreaterThan(1);
      for (const line of paragraphLines.slice(0, -1)) expect(stringWidth(line), line).toBeGreaterThanOrEqual(width - 8);
    });
  }

  it("a list item's continuation lines are indented under its text, not at column 0", async () => {
    const markdown = await loadMarkdown(70);
    const lines = plain(markdown.render(`1. ${ITEM}\n2. short\n`))
      .split('\n')
      .filter(Boolean);
    expect(lines[0]).toMatch(/^ {2}1\. 列表项/);
    const item = lines.slice(
      0,
      lines.findIndex((l) => /^\s*2\. short$/.test(l)),
    );
    expect(item.length).toBeGreaterThan(2);
    for (const line of item.slice(1)) expect(line, line).toMatch(/^ {5}\S/);
  });

  it('a hard line break stays a break; soft breaks join lines (no space between Chinese characters)', async () => {
    const markdown = await loadMarkdown(70);
    const out = plain(markdown.render('第一行  \n第二行\n接着写 and\nmore\n'));
    expect(out.trimEnd().split('\n')).toEqual(['第一行', '第二行接着写 and more']);
  });
});

describe('reflowProse', () => {
  it('keeps terminal styling, which takes no room, and cuts a word wider than the line', async () => {
    const { reflowProse } = await import('../../src/cli/render/reflow.js');
    const bold = (t: string): string => `\u001b[1m${t}\u001b[22m`;
    const out = reflowProse(`前面的文字${bold('加粗的中文')}后面，还有 ${bold('English words')} here`, 12);
    // "面，" stays together: no line starts with "，".
    expect(out.split('\n').map(plain)).toEqual(['前面的文字加', '粗的中文后', '面，还有', 'English', 'words here']);
    expect(out.match(/\u001b\[1m/g)).toHaveLength(2);
    expect(out.match(/\u001b\[22m/g)).toHaveLength(2);
    expect(reflowProse('x'.repeat(25), 10).split('\n')).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    expect(reflowProse('  leading and   inner  spaces  ', 40)).toBe('leading and inner spaces');
    expect(reflowProse('一\r二', 40)).toBe('一\n二');
  });
});
