import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import stringWidth from 'string-width';

const DRIVER = fileURLToPath(new URL('../fixtures/pty-drive.py', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli/bin.cjs', import.meta.url));

export type Step = { wait: string; timeout?: number } | { send: string } | { sleep: number };

export interface Driven {
  ok: boolean;
  transcript: string;
  code: number | null;
  failed_wait: string | null;
}

/** Runs the built CLI in a pseudo-terminal, sending keys and waiting for text (test/fixtures/pty-drive.py). */
export function drive(steps: Step[], args: string[], env: Record<string, string>, options: { cwd?: string } = {}): Promise<Driven> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [DRIVER, JSON.stringify(steps), process.execPath, CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm-256color', ...env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as Driven);
      } catch (error) {
        reject(new Error(`driver output: ${out}`, { cause: error }));
      }
    });
  });
}

/** The transcript without terminal escape sequences. */
export function plain(transcript: string): string {
  // eslint-disable-next-line no-control-regex
  return transcript.replace(/\u001b\[[0-9;?]*[A-Za-z~]/g, '').replace(/\r/g, '');
}

/**
 * What the screen shows at the end, roughly: a small emulation of the sequences the CLI uses to redraw
 * (carriage return, cursor up, erase line, erase below), colours dropped. With `columns`, long lines wrap as
 * a terminal wraps them (Chinese characters take two columns); with `rows`, the cursor cannot move above the
 * top of a screen that tall (what scrolled off cannot be redrawn).
 */
export function screenOf(transcript: string, size: { rows?: number; columns?: number } = {}): string {
  const rows = size.rows ?? Infinity;
  const columns = size.columns ?? Infinity;
  // Each screen row is a list of cells; a wide character takes its cell and an empty one after it.
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  let bottom = 0;
  const newline = (): void => {
    row += 1;
    bottom = Math.max(bottom, row);
    col = 0;
    if (lines.length <= row) lines.push([]);
  };
  const put = (ch: string): void => {
    const width = ch === '\t' ? 1 : stringWidth(ch);
    if (width === 0) return;
    if (col + width > columns) newline();
    const line = (lines[row] ??= []);
    while (line.length < col) line.push(' ');
    line.splice(col, width, ch, ...(width === 2 ? [''] : []));
    col += width;
  };
  // eslint-disable-next-line no-control-regex
  const tokens = transcript.match(/\u001b\[[0-9;?]*[A-Za-z~]|[\s\S]/gu) ?? [];
  for (const token of tokens) {
    if (token.startsWith('\u001b[')) {
      const final = token.at(-1);
      const n = Number(token.slice(2, -1)) || 1;
      if (final === 'A') row = Math.max(0, bottom - rows + 1, row - n);
      else if (final === 'J') {
        lines[row] = (lines[row] ?? []).slice(0, col);
        lines.length = row + 1;
      } else if (final === 'K') lines[row] = token === '\u001b[2K' ? [] : (lines[row] ?? []).slice(0, col);
      else if (final === 'G') col = n - 1;
      continue;
    }
    if (token === '\r') col = 0;
    else if (token === '\n') newline();
    else if (token >= ' ' || token === '\t') put(token);
  }
  return lines.map((l) => l.join('').trimEnd()).join('\n');
}
