import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/cli/session.js';
import { type CliRun, byRole, roleOf, runCli } from '../helpers/cli.js';
import { type RecordedRequest, fakeServerEachTest } from '../helpers/fake-openai.js';
import { drive, plain } from '../helpers/pty.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';

const fake = fakeServerEachTest({ AUTOPATCH_LLM_API_KEY: 'sk-test', AUTOPATCH_LLM_MODEL: 'fake-model' });
const env = fake.env;
const of = (role: ReturnType<typeof roleOf>): RecordedRequest[] => fake.server.requests.filter((r) => roleOf(r) === role);
const lastUser = (r: RecordedRequest): string => String(r.body.messages!.at(-1)!.content);
const turns = (repo: string): { user_text: string }[] =>
  withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text FROM turns ORDER BY sequence').all() as { user_text: string }[]);

function ok(run: CliRun): CliRun {
  expect(run.code, `stderr: ${run.stderr}`).toBe(0);
  return run;
}

/** A git project with a Java class deep in a source folder. */
function javaProject(): { repo: string; folder: string } {
  const repo = tempRepo();
  execFileSync('git', ['init', '-q', repo]);
  const folder = join(repo, 'src', 'main', 'java', 'com', 'example');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'Calculator.java'), 'public class Calculator {\n  int add(int a, int b) { return a - b; }\n}\n');
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  return { repo, folder };
}

describe('piped input with a prompt', () => {
  it('cmd | ask "prompt" sends the prompt, then the piped text as a fenced block; ask - "prompt" is the same', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'seen' }) }));
    const log = 'FAIL test/calc.test.js\n  expected 3, got -1\n```not a fence end```';
    ok(await runCli(['ask', '--repo', repo, 'why does this fail?'], { env: env(), input: `${log}\n` }));
    ok(await runCli(['ask', '--repo', repo, '-', 'why does this fail?'], { env: env(), input: log }));
    ok(await runCli(['--repo', repo, 'why does this fail?'], { env: env(), input: log }));
    const expected = `why does this fail?\n\n\`\`\`\`\n${log}\n\`\`\`\``;
    expect(of('main').map(lastUser)).toEqual([expected, expected, expected]);
    // The RAW turn is the request as sent: prompt and piped text.
    expect(turns(repo).map((t) => t.user_text)).toEqual([expected, expected, expected]);
  });

  it('an empty pipe leaves the prompt alone; the pipe alone is the request', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'seen' }) }));
    ok(await runCli(['ask', '--repo', repo, 'just the prompt'], { env: env(), input: '' }));
    ok(await runCli(['ask', '--repo', repo, '-'], { env: env(), input: 'only piped\n' }));
    expect(of('main').map(lastUser)).toEqual(['just the prompt', 'only piped']);
  });
});

describe('piped input that is not UTF-8', () => {
  it('is refused with the first bad byte and how to convert it: nothing is sent, no turn stored', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'seen' }) }));
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x0a]); // 你好 in GBK
    for (const [args, input] of [
      [['ask', '--repo', repo, 'explain'], latin1],
      [['ask', '--repo', repo, '-'], gbk],
      [['--repo', repo, 'explain this'], latin1],
      [['--repo', repo], gbk],
      [['--repo', repo, '--lines'], Buffer.concat([Buffer.from('first line\n'), latin1])],
    ] as const) {
      const run = await runCli([...args], { env: env(), input });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/the piped input is not UTF-8 text \(byte 0x[0-9a-f]{2} at offset \d+\); nothing was sent or stored/);
      expect(run.stderr).toContain('iconv -f GB18030 -t UTF-8');
    }
    expect(fake.server.requests).toHaveLength(0);
    expect(existsSync(dbPathOf(repo)) ? turns(repo) : []).toEqual([]);
    // Valid UTF-8 (Chinese included) still goes through.
    ok(await runCli(['ask', '--repo', repo, 'explain'], { env: env(), input: '你好\n' }));
    expect(turns(repo).map((t) => t.user_text)).toEqual(['explain\n\n```\n你好\n```']);
  });
});

describe('ask - on a terminal', () => {
  it('is a usage error: there is nothing piped to read (the prompt is not sent alone)', async () => {
    const run = await drive([], ['ask', '--repo', tempRepo(), '-', 'why does this fail?'], env());
    expect(run.code, run.transcript).toBe(2);
    expect(plain(run.transcript)).toContain('pipe it in (autopatch-j ask - < request.txt)');
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('routing', () => {
  it('a 429 on the intent classifier is retried like a main call: the repair request stays a repair request', async () => {
    const repo = tempRepo();
    let classifierCalls = 0;
    fake.server.always(
      byRole({
        classifier: () => {
          classifierCalls += 1;
          if (classifierCalls === 1) return { status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0' } };
          if (classifierCalls === 2) return { status: 502, body: '{}', headers: { 'retry-after': '0' } };
          return { text: '{"intent":"code_audit"}' };
        },
        main: () => ({ text: 'no findings' }),
      }),
    );
    const run = ok(await runCli(['ask', '--repo', repo, '--json', 'audit src/calc.js'], { env: env() }));
    expect(of('classifier')).toHaveLength(3);
    expect(run.stderr).toContain('HTTP 429 from the provider, retrying in 0s (1/3)');
    expect(JSON.parse(run.stdout)).toMatchObject({ intent: 'code_audit', turnId: null });
    // A repair request never becomes an ordinary turn.
    expect(turns(repo)).toEqual([]);
  });

  it('autopatch-j status (and other memory subcommands without "memory") suggests autopatch-j memory status', async () => {
    const repo = tempRepo();
    for (const [words, suggestion] of [
      [['status'], 'autopatch-j memory status'],
      [['list'], 'autopatch-j memory list'],
      [['show', 'm1a2b3c4'], 'autopatch-j memory show m1a2b3c4'],
      [['stauts'], 'autopatch-j memory status'],
      [['import'], 'autopatch-j memory import'],
    ] as const) {
      const run = await runCli(['--repo', repo, ...words], { env: env() });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`Did you mean '${suggestion}'?`);
      expect(run.stderr).not.toMatch(/memory export/);
    }
    // An option of the subcommand: commander refuses it on the top level; the suggestion keeps every option.
    for (const [words, suggestion] of [
      [['status', '--json'], 'autopatch-j memory status --json'],
      [['--json', 'list'], 'autopatch-j memory list --json'],
      [['show', 'm1a2b3c4', '--json'], 'autopatch-j memory show m1a2b3c4 --json'],
    ] as const) {
      const run = await runCli([...words, '--repo', repo], { env: env() });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain("unknown option '--json'");
      expect(run.stderr).toContain(`Did you mean '${suggestion} --repo ${repo}'?`);
    }
    // A real unknown option without a command to suggest stays commander's error alone.
    const plainError = await runCli(['--repo', repo, '--frobnicate'], { env: env() });
    expect(plainError.code).toBe(2);
    expect(plainError.stderr).toContain("unknown option '--frobnicate'");
    expect(plainError.stderr).not.toContain('Did you mean');
    // In a session, /memory import says it is a shell command; it does not suggest /memory export.
    const session = await runCli(['--repo', repo], { env: env(), input: '/memory import backup.json\n' });
    expect(session.stdout + session.stderr).toContain('memory import runs from the shell: autopatch-j memory import <file>');
    expect(session.stdout + session.stderr).not.toContain('/memory export');
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('the folder the user started in', () => {
  it('from src/main/java/com/example, "explain Calculator.java" reads that file: the agent is told the folder', async () => {
    const { repo, folder } = javaProject();
    fake.server.always(
      byRole({
        main: (r) =>
          r.body.messages!.some((m) => m.role === 'tool')
            ? { text: 'It subtracts.' }
            : { text: '', toolCalls: [{ name: 'read_file', arguments: '{"path":"Calculator.java"}' }] },
      }),
    );
    const run = ok(await runCli(['ask', 'explain Calculator.java'], { env: env(), cwd: folder }));
    expect(run.stdout).toContain('It subtracts.');
    expect(run.stderr).toContain('read_file src/main/java/com/example/Calculator.java · 4 lines');
    const [first, second] = of('main');
    expect(String(first!.body.messages![0]!.content)).toContain('the folder src/main/java/com/example/ of the repository');
    const tool = second!.body.messages!.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('int add(int a, int b) { return a - b; }');
    // The same Memory as at the top of the project.
    expect(turns(repo)).toHaveLength(1);
    // A session there says where it started.
    const session = await drive([{ wait: 'autopatch-j> ' }, { send: '\u0004' }], [], env(), { cwd: folder });
    expect(plain(session.transcript)).toContain(`autopatch-j in ${repo} (from src/main/java/com/example/)`);
  });
});

describe('@path references', () => {
  it('"explain @Calculator.java" attaches the file (bounded, as read_file gives it); Memory keeps the words as typed', async () => {
    const { repo, folder } = javaProject();
    fake.server.always(byRole({ main: () => ({ text: 'Read it.' }) }));
    const run = ok(await runCli(['ask', 'explain @Calculator.java, and @README.md. Not @Override.'], { env: env(), cwd: folder }));
    expect(run.stderr).toContain('read_file src/main/java/com/example/Calculator.java · 4 lines');
    expect(run.stderr).toContain('read_file README.md · 2 lines');
    const sent = lastUser(of('main')[0]!);
    expect(sent.startsWith('explain @Calculator.java, and @README.md. Not @Override.\n\n')).toBe(true);
    expect(sent).toContain('--- @Calculator.java (file src/main/java/com/example/Calculator.java) ---');
    expect(sent).toContain('2|   int add(int a, int b) { return a - b; }');
    expect(sent).toContain('1| # demo');
    expect(sent).not.toContain('@Override (');
    expect(turns(repo)).toEqual([{ user_text: 'explain @Calculator.java, and @README.md. Not @Override.' }]);
  });

  it('an @path right after Chinese text, or followed by full-width punctuation or more Chinese, is attached', async () => {
    const repo = tempRepo();
    mkdirSync(join(repo, 'src'));
    writeFileSync(join(repo, 'src', 'calc.js'), 'export const add = (a, b) => a - b;\n');
    mkdirSync(join(repo, '文档'));
    writeFileSync(join(repo, '文档', '说明.md'), '# 说明\n');
    writeFileSync(join(repo, 'example.com'), 'not a reference\n');
    fake.server.always(byRole({ main: () => ({ text: 'ok' }) }));
    const cases: [string, string[]][] = [
      ['解释一下@src/calc.js', ['src/calc.js']],
      ['看看 @src/calc.js，有什么问题', ['src/calc.js']],
      ['@src/calc.js的问题是什么？', ['src/calc.js']],
      ['（@src/calc.js）和「@文档/说明.md」', ['src/calc.js', '文档/说明.md']],
      ['write to dev@example.com about it', []],
    ];
    for (const [request, attached] of cases) {
      const before = of('main').length;
      const run = ok(await runCli(['ask', '--repo', repo, request], { env: env() }));
      const sent = lastUser(of('main')[before]!);
      for (const path of attached) {
        expect(run.stderr, request).toContain(`read_file ${path}`);
        expect(sent, request).toContain(`(file ${path}) ---`);
      }
      if (attached.length === 0) expect(sent, request).toBe(request);
    }
  });

  it('a large file is attached cut at the tool-output limit, with the note to read a narrower range', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    fake.server.always(byRole({ main: () => ({ text: 'ok' }) }));
    ok(await runCli(['ask', '--repo', repo, 'summarize @big.txt'], { env: env() }));
    const sent = lastUser(of('main')[0]!);
    expect(sent.length).toBeLessThan(13_000);
    expect(sent).toContain('[output cut at 12000 characters; ask for a narrower range]');
  });

  it('Tab completes @paths from the folder the session started in: folders with /, files with a space', () => {
    const { repo } = javaProject();
    mkdirSync(join(repo, 'node_modules', 'x'), { recursive: true });
    const ctx = { repoRoot: repo, workingFolder: '' } as unknown as Parameters<typeof complete>[1];
    expect(complete('explain @sr', ctx)).toEqual([['@src/'], '@sr']);
    expect(complete('explain @src/main/java/com/example/C', ctx)).toEqual([
      ['@src/main/java/com/example/Calculator.java '],
      '@src/main/java/com/example/C',
    ]);
    expect(complete('look at @', ctx)[0]).toEqual(['@README.md ', '@src/']);
    expect(complete('@../', ctx)).toEqual([[], '@../']);
    const inFolder = { repoRoot: repo, workingFolder: 'src/main/java/com/example' } as unknown as Parameters<typeof complete>[1];
    expect(complete('explain @Cal', inFolder)).toEqual([['@Calculator.java '], '@Cal']);
    // After Chinese text too, but not inside an e-mail address.
    expect(complete('解释一下@sr', ctx)).toEqual([['@src/'], '@sr']);
    expect(complete('看看（@RE', ctx)).toEqual([['@README.md '], '@RE']);
    expect(complete('mail dev@RE', ctx)).toEqual([[], 'mail dev@RE']);
  });
});

describe('history', () => {
  it('a multi-line request recalled with Up, in the session and after a restart, is still multi-line', async () => {
    const repo = tempRepo();
    fake.server.always(byRole({ main: () => ({ text: 'answered' }) }));
    const steps = (first: boolean): object[] => [
      { wait: 'autopatch-j> ' },
      ...(first
        ? [{ send: 'first line\\\r' }, { wait: '… ' }, { send: 'second line\r' }, { wait: 'answered' }, { wait: 'autopatch-j> ' }]
        : []),
      { send: '\u001b[A' },
      { sleep: 0.3 },
      { send: '\r' },
      { wait: 'answered' },
      { wait: 'autopatch-j> ' },
      { send: '\u0004' },
    ];
    const session = await drive(steps(true) as never, ['--repo', repo], env());
    expect(session.failed_wait, session.transcript).toBeNull();
    const restarted = await drive(steps(false) as never, ['--repo', repo], env());
    expect(restarted.failed_wait, restarted.transcript).toBeNull();
    expect(plain(restarted.transcript)).toContain('first line\nsecond line');
    expect(of('main').map(lastUser)).toEqual(['first line\nsecond line', 'first line\nsecond line', 'first line\nsecond line']);
  });
});
