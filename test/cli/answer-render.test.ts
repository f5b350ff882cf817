import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { byRole } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { type Driven, drive, screenOf } from '../helpers/pty.js';
import { tempRepo } from '../helpers/temp-repo.js';

// Streamed answers on a small colour terminal (24 rows, 70 columns). The fake server streams the answer in
// pieces of five characters, as a provider does, so the renderer sees every unit arrive piecemeal.
const ROWS = 24;
const COLUMNS = 70;
const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'k' });

async function answered(
  answer: string,
  { rows = ROWS, columns = COLUMNS, chunkSize = 5 }: { rows?: number; columns?: number; chunkSize?: number } = {},
): Promise<{ run: Driven; screen: string }> {
  fake.server.always(byRole({ main: () => ({ text: answer, chunkSize }) }));
  const run = await drive(
    [{ wait: 'autopatch-j> ' }, { send: 'explain\r' }, { wait: 'THE END' }, { wait: 'autopatch-j> ' }, { send: '\u0004' }],
    ['--repo', tempRepo()],
    fake.env({ PTY_ROWS: String(rows), PTY_COLS: String(columns) }),
  );
  return { run, screen: screenOf(run.transcript, { rows, columns }) };
}

describe('answers rendered while they stream (24 rows, 70 columns)', () => {
  it('an ordered list is numbered 1, 2, 3 and inline code and emphasis inside its items are rendered', async () => {
    const { run, screen } = await answered(
      'Three steps:\n\n1. Open `src/calc.js` and read **add**\n2. Change *one* line\n3. Run `npm test`\n\nTHE END\n',
    );
    expect(run.failed_wait, run.transcript).toBeNull();
    expect(screen).toMatch(/^\s*1\. Open src\/calc\.js and read add$/m);
    expect(screen).toMatch(/^\s*2\. Change one line$/m);
    expect(screen).toMatch(/^\s*3\. Run npm test$/m);
    expect(screen).not.toMatch(/\*\*|`|\*one\*/);
    // The emphasis is real styling: bold around "add", italic around "one".
    expect(run.transcript).toMatch(/\u001b\[1madd\u001b\[22m/);
    expect(run.transcript).toMatch(/\u001b\[3mone\u001b\[23m/);
  });

  it('a list interrupted by a code block goes on with its own numbers', async () => {
    const { run, screen } = await answered(
      '1. Install:\n\n```sh\nnpm ci\n```\n\n2. Test:\n\n```sh\nnpm test\n```\n\n3. Ship it\n\nTHE END\n',
    );
    expect(run.failed_wait, run.transcript).toBeNull();
    expect(screen).toMatch(/^\s*1\. Install:$/m);
    expect(screen).toMatch(/^\s*2\. Test:$/m);
    expect(screen).toMatch(/^\s*3\. Ship it$/m);
  });

  it('a 50-line fenced block on a 24-row terminal is rendered whole: no fence lines, every line once', async () => {
    const code = Array.from({ length: 50 }, (_, i) => `    total += weight_${i} * value_${i}  # step ${i}`);
    const { run, screen } = await answered(`The loop:\n\n\`\`\`python\ndef total():\n${code.join('\n')}\n\`\`\`\n\nTHE END\n`);
    expect(run.failed_wait, run.transcript).toBeNull();
    expect(screen).not.toContain('```');
    for (let i = 0; i < 50; i += 1)
      expect(screen.match(new RegExp(`^\\s+total \\+= weight_${i} \\* value_${i}  # step ${i}$`, 'gm'))).toHaveLength(1);
    expect(screen).toMatch(/^THE END$/m);
    // Highlighted: the keyword is coloured.
    expect(run.transcript).toMatch(/\u001b\[[0-9;]+mdef\u001b\[/);
  });

  it('a wide table fits 70 columns: cells wrap between words (Chinese between characters), nothing is cut', async () => {
    const english = 'reads the configuration once and validates every variable before the first request';
    const chinese = '以后回答先给结论然后再解释原因和可能的替代方案并且给出代码示例';
    const { run, screen } = await answered(
      `| setting | what it does | default |\n|---|---|---|\n| \`AUTOPATCH_LLM_TIMEOUT_MS\` | ${english} | 60000 |\n` +
        `| 偏好 | ${chinese} | 无 |\n\nTHE END\n`,
    );
    expect(run.failed_wait, run.transcript).toBeNull();
    const table = screen.split('\n').filter((line) => /^[┌│├└]/.test(line));
    expect(table.length).toBeGreaterThan(6);
    for (const line of table) expect(stringWidth(line), line).toBeLessThanOrEqual(COLUMNS);
    // Every row has the same width: the borders line up.
    expect(new Set(table.map((line) => stringWidth(line))).size).toBe(1);
    const cellText = (column: number): string =>
      table
        .filter((line) => line.startsWith('│'))
        .map((line) => line.split('│')[column]!.trim())
        .join(' ');
    expect(cellText(2).replace(/\s+/g, ' ')).toContain(english);
    expect(cellText(2).replace(/\s/g, '')).toContain(chinese);
    expect(cellText(1).replace(/\s/g, '')).toContain('AUTOPATCH_LLM_TIMEOUT_MS');
  });
});

describe('Chinese and mixed prose wraps by display width (24 rows, 70 columns)', () => {
  it('no line starts with "。" or holds one stray character; list items continue under their text', async () => {
    const paragraph = '这是一段很长的中文说明，包含 `inline code` 和 *强调*。'.repeat(4);
    const item = '列表项的文字很长很长，需要换行才能显示完整，包含 `code` 和 **粗体**。'.repeat(2);
    const { run, screen } = await answered(`${paragraph}\n\n1. ${item}\n2. short\n\nTHE END\n`);
    expect(run.failed_wait, run.transcript).toBeNull();
    const lines = screen.split('\n');
    const first = lines.findIndex((l) => l.startsWith('这是一段'));
    const answer = lines.slice(
      first,
      lines.findIndex((l) => l === 'THE END'),
    );
    expect(answer.length).toBeGreaterThan(6);
    for (const line of answer) {
      expect(line, screen).not.toMatch(/^\s*[。，、）]/);
      if (line.trim().length > 0) expect(stringWidth(line.trim()), `${line}\n${screen}`).toBeGreaterThan(4);
    }
    const itemLines = answer.slice(
      answer.findIndex((l) => /^\s*1\. /.test(l)),
      answer.findIndex((l) => /^\s*2\. short$/.test(l)),
    );
    expect(itemLines.length).toBeGreaterThan(1);
    for (const line of itemLines.slice(1)) expect(line, screen).toMatch(/^ {5}\S/);
  });
});

describe('streamed Chinese text on a wide terminal (40 rows, 120 columns)', () => {
  // A row of Chinese text wraps one column early when a double-width character does not fit in the last
  // column: the raw text shown while the block streams takes more rows than its width divided by the columns.
  const paragraph = '这是一段很长的中文说明，包含 `inline code` 和 *强调*。'.repeat(20);
  const size = { rows: 40, columns: 120 };

  it('no raw line of a list or a paragraph is left above its rendering (11-character chunks)', async () => {
    const list = '1. item 1 `c1`\n2. item 2 `c2`\n3. item 3 `c3`\n\n';
    const { run, screen } = await answered(`${list}${paragraph}\n\nTHE END\n`, { ...size, chunkSize: 11 });
    expect(run.failed_wait, run.transcript).toBeNull();
    for (const n of [1, 2, 3]) expect(screen.match(new RegExp(`^\\s*${n}\\. item ${n} c${n}$`, 'gm')), screen).toHaveLength(1);
    expect(screen).not.toMatch(/`|\*强调\*/);
    // Every copy of the sentence once, wherever the rendering wrapped it.
    expect(screen.replace(/\n\s*/g, '').match(/这是一段很长的中文说明/g)).toHaveLength(20);
  });

  it('the whole answer in one chunk: "Intro" once, the paragraph rendered once', async () => {
    const { run, screen } = await answered(`Intro\n\n${paragraph}\n\nTHE END\n`, { ...size, chunkSize: 100_000 });
    expect(run.failed_wait, run.transcript).toBeNull();
    expect(screen.match(/^Intro$/gm), screen).toHaveLength(1);
    expect(screen).not.toMatch(/`|\*强调\*/);
    // Every copy of the sentence once, wherever the rendering wrapped it.
    expect(screen.replace(/\n\s*/g, '').match(/这是一段很长的中文说明/g)).toHaveLength(20);
  });
});
