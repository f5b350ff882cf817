import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/cli/session.js';
import { byRole, roleOf } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { type Driven, type Step, drive as ptyDrive } from '../helpers/pty.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest();

// These tests ran on a plain xterm: the shared driver is given the same terminal type.
const drive = (steps: object[], args: string[], env: Record<string, string> = {}): Promise<Driven> =>
  ptyDrive(steps as Step[], args, { TERM: 'xterm', ...env });

describe('the interactive session on a terminal', () => {
  it('completes slash commands, cancels a request with Ctrl-C and continues, keeps history, leaves with Ctrl-D', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({
        main: (r) =>
          String(r.body.messages!.at(-1)!.content).includes('hang')
            ? { text: 'working on it', hangAfter: true }
            : { text: 'streamed 答案 here' },
      }),
    );
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: '/mem\t' },
        { wait: 'memory' },
        { send: 'status\r' },
        { wait: 'Memory: healthy' },
        { wait: 'autopatch-j> ' },
        { send: 'please hang\r' },
        { wait: 'working on it' },
        { send: '\u0003' },
        { wait: 'cancelled' },
        { wait: 'autopatch-j> ' },
        { send: 'quick question\r' },
        { wait: 'streamed 答案 here' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      { AUTOPATCH_LLM_BASE_URL: fake.server.url, AUTOPATCH_LLM_API_KEY: 'k' },
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    const history = readFileSync(join(repo, '.autopatch-j', 'cli_history'), 'utf8');
    expect(history).toContain('/memory status');
    expect(history).toContain('please hang');
    const turns = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text, state FROM turns ORDER BY sequence').all());
    expect(turns).toEqual([
      { user_text: 'please hang', state: 'failed' },
      { user_text: 'quick question', state: 'completed' },
    ]);
    expect(fake.server.requests.filter((r) => roleOf(r) === 'main')).toHaveLength(2);
  });
});

describe('completion', () => {
  it('completes commands, memory subcommands and memory ids', async () => {
    const { memoryWithOnePreference } = await import('../helpers/scripted.js');
    const repo = tempRepo();
    const memory = await memoryWithOnePreference(repo);
    const id = memory.list()[0]!.id;
    const ctx = { memory } as unknown as Parameters<typeof complete>[1];
    expect(complete('/me', ctx)).toEqual([['/memory '], '/me']);
    expect(complete('/memory sh', ctx)).toEqual([['show '], 'sh']);
    expect(complete(`/memory forget ${id.slice(0, 3)}`, ctx)).toEqual([[`${id} `], id.slice(0, 3)]);
    expect(complete('/memory clear --c', ctx)).toEqual([['--confirm '], '--c']);
    expect(complete('hello', ctx)).toEqual([[], 'hello']);
    await memory.close();
  });
});
