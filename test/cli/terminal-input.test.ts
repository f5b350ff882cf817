import { describe, expect, it } from 'vitest';
import { byRole, roleOf } from '../helpers/cli.js';
import { type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';
import { type Step, drive, plain, screenOf } from '../helpers/pty.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'k' });

const env = fake.env;
const mains = (): RecordedRequest[] => fake.server.requests.filter((r) => roleOf(r) === 'main');
const lastUser = (r: RecordedRequest): string => String(r.body.messages!.at(-1)!.content);
const turns = (repo: string): unknown[] =>
  withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text, state, assistant_text FROM turns ORDER BY sequence').all());

describe('cancelling on a terminal', () => {
  it('Ctrl-C during a streaming answer prints "cancelled" and keeps the turn as failed, never completed', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'first half of the answer', hangAfter: true }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: 'tell me\r' },
        { wait: 'first half' },
        { sleep: 0.3 },
        { send: '\u0003' },
        { wait: 'cancelled' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    expect(turns(repo)).toEqual([{ user_text: 'tell me', state: 'failed', assistant_text: null }]);
  });

  it('Esc cancels a request too, and text typed while it runs is held for the next prompt, not shown inside the answer', async () => {
    const repo = tempRepo();
    fake.server.always(
      byRole({ main: (r) => (lastUser(r) === 'slow one' ? { text: 'partial answer', hangAfter: true } : { text: 'second answer' }) }),
    );
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: 'slow one\r' },
        { wait: 'partial answer' },
        { send: 'typed ahead' },
        { sleep: 0.3 },
        { send: '\u001b' },
        { wait: 'cancelled' },
        { wait: 'typed ahead' },
        { send: '\r' },
        { wait: 'second answer' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    const screen = plain(result.transcript);
    // Nothing typed during the answer appears before "cancelled": it waited for the prompt.
    expect(screen.slice(0, screen.indexOf('cancelled'))).not.toContain('typed ahead');
    expect(mains().map(lastUser)).toEqual(['slow one', 'typed ahead']);
  });
});

describe('the prompt', () => {
  it('Ctrl-C clears the half-typed line: "abc", Ctrl-C, "xyz" sends "xyz"', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answered' }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: 'abc' },
        { sleep: 0.2 },
        { send: '\u0003' },
        { wait: 'autopatch-j> ' },
        { send: 'xyz\r' },
        { wait: 'answered' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(mains().map(lastUser)).toEqual(['xyz']);
  });

  it('Ctrl-C twice on an empty prompt leaves the session', async () => {
    const repo = tempRepo();
    const result = await drive(
      [{ wait: 'autopatch-j> ' }, { send: '\u0003' }, { wait: 'Ctrl-C again' }, { send: '\u0003' }],
      ['--repo', repo],
      env(),
    );
    expect(result.code, result.transcript).toBe(0);
    expect(result.failed_wait).toBeNull();
  });

  it('a bracketed paste of several lines is ONE request', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'one answer' }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: '\u001b[200~line one\nline two\r\nline three\u001b[201~' },
        { sleep: 0.3 },
        { send: '\r' },
        { wait: 'one answer' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(mains().map(lastUser)).toEqual(['line one\nline two\nline three']);
    expect(turns(repo)).toHaveLength(1);
  });

  it('a line ended with a backslash, or Alt+Enter, continues the request on the next line', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'joined answer' }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: 'first\\\r' },
        { wait: '… ' },
        { send: 'second\u001b\r' },
        { wait: '… ' },
        { send: 'third\r' },
        { wait: 'joined answer' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(mains().map(lastUser)).toEqual(['first\nsecond\nthird']);
  });
});

describe('what the terminal shows', () => {
  it('the banner says in one line that conversations are stored locally and sent to the provider', async () => {
    const repo = tempRepo();
    const result = await drive([{ wait: 'autopatch-j> ' }, { send: '\u0004' }], ['--repo', repo], env());
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(plain(result.transcript)).toMatch(/Conversations are stored locally in \.autopatch-j\/ and sent to 127\.0\.0\.1:\d+\./);
  });

  it('answers are rendered markdown on a colour terminal, the raw text with NO_COLOR', async () => {
    const answer = '## Result\n\nThe **sum** is wrong.\n\n```js\nconst add = (a, b) => a + b;\n```\n';
    fake.server.always(byRole({ main: () => ({ text: answer }) }));
    const steps = [{ wait: 'autopatch-j> ' }, { send: 'explain\r' }, { wait: 'add' }, { wait: 'autopatch-j> ' }, { send: '\u0004' }];
    const rendered = await drive(steps, ['--repo', tempRepo()], env());
    expect(rendered.failed_wait, rendered.transcript).toBeNull();
    // The raw text streams first, then is erased and redrawn rendered: compare what the screen ends with.
    const screen = screenOf(rendered.transcript);
    expect(screen).toMatch(/^Result$/m);
    expect(screen).toMatch(/^The sum is wrong\.$/m);
    expect(screen).toMatch(/^\s*const add = \(a, b\) => a \+ b;$/m);
    expect(screen).not.toContain('**sum**');
    expect(screen).not.toContain('```');
    expect(rendered.transcript).toMatch(/\u001b\[\d+A\u001b\[J/);
    expect(rendered.transcript).toMatch(/\u001b\[[0-9;]*m/);
    const raw = await drive(steps, ['--repo', tempRepo()], env({ NO_COLOR: '1' }));
    expect(raw.failed_wait, raw.transcript).toBeNull();
    expect(screenOf(raw.transcript)).toContain('The **sum** is wrong.');
    expect(screenOf(raw.transcript)).toContain('```js');
  });

  it('autopatch-j --help fits a 60-column terminal', async () => {
    const result = await drive([{ wait: 'Exit codes' }], ['--help'], env({ PTY_COLS: '60' }));
    expect(result.failed_wait, result.transcript).toBeNull();
    const lines = plain(result.transcript).split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(lines.join('\n')).toContain('AUTOPATCH_LLM_API_KEY');
  });

  it('/help wraps to a 60-column terminal without cutting words', async () => {
    const result = await drive(
      [{ wait: 'autopatch-j> ' }, { send: '/help\r' }, { wait: 'Ctrl-D leaves' }, { wait: 'autopatch-j> ' }, { send: '\u0004' }],
      ['--repo', tempRepo()],
      env({ PTY_COLS: '60' }),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    const screen = plain(result.transcript);
    const help = screen.slice(screen.indexOf('Type a question'), screen.indexOf('Ctrl-D leaves') + 'Ctrl-D leaves'.length);
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(help).toContain('/memory status|list');
  });
});

describe('Memory on the way', () => {
  it('Ctrl-C during the exit pass skips it: the jobs stay queued and the one line says so', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answer' }), extraction: () => ({ hang: true }) }));
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: 'hello\r' },
        { wait: 'answer' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
        { wait: 'Ctrl-C skips' },
        { sleep: 0.3 },
        { send: '\u0003' },
        { wait: 'memory: ' },
      ],
      ['--repo', repo],
      env(),
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    expect(plain(result.transcript)).toContain(
      'memory: 1 still queued (skipped with Ctrl-C; a running session or the next start takes them) — autopatch-j memory status explains',
    );
  });

  it('when background Memory jobs keep failing, the session says so once, not once per job', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'fine' }), extraction: () => ({ status: 503, body: '{}' }) }));
    const steps: Step[] = [{ wait: 'autopatch-j> ' }];
    for (const word of ['one', 'two', 'three', 'four', 'five', 'six'])
      steps.push({ send: `${word}\r` }, { wait: 'fine' }, { wait: 'autopatch-j> ' }, { sleep: 0.4 });
    steps.push({ send: '\u0004' });
    const result = await drive(steps, ['--repo', repo], env());
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(plain(result.transcript).match(/background jobs keep failing/g)).toHaveLength(1);
  });
});
