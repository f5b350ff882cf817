import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryManager, SCHEMA_SQL, ScriptedLlm } from '../../src/index.js';
import { loadHistory, saveHistory } from '../../src/cli/history.js';
import { safeJson, safeTerminalText } from '../../src/shared/terminal-text.js';
import { byRole, runCli } from '../helpers/cli.js';
import { fakeServerEachTest } from '../helpers/fake-openai.js';
import { type Driven, type Step, drive as ptyDrive } from '../helpers/pty.js';
import { consolidateWith, extractWith } from '../helpers/scripted.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

/** OSC 52 clipboard write, clear screen, a one-byte C1 CSI, a bidi override, a carriage return and DEL. */
const HOSTILE = '\u001b]52;c;SGFja2Vk\u0007\u001b[2J\u009b31m\u202eEVIL\r\u007f';
/** What must never appear in bytes written to the terminal. */
const FORBIDDEN = ['\u001b]52', '\u001b[2J', '\u009b', '\u202e', '\u0007', '\u007f', 'EVIL\r'];

const fake = fakeServerEachTest();

// These tests ran on a plain xterm: the shared driver is given the same terminal type.
const drive = (steps: object[], args: string[], env: Record<string, string> = {}): Promise<Driven> =>
  ptyDrive(steps as Step[], args, { TERM: 'xterm', ...env });

function expectClean(transcript: string): void {
  for (const bad of FORBIDDEN)
    expect(transcript.includes(bad), `${JSON.stringify(bad)} reached the terminal:\n${JSON.stringify(transcript)}`).toBe(false);
}

/**
 * A repo with one usable memory whose title carries the hostile text, and a hostile history line. The pipeline
 * refuses such a title (M-6.4), so it is written the way another tool (or an older version) could have left it:
 * straight into the file, the append-only trigger set aside and put back exactly as the schema has it.
 */
async function hostileRepo(): Promise<{ repo: string; id: string }> {
  const repo = tempRepo();
  const llm = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((t) => [
        {
          kind: 'user_preference',
          title: 'answer first',
          content: `answer first ${HOSTILE}`,
          aliases: [],
          sources: [{ turn_id: t.turn_id, role: 'user', quote: t.user }],
        },
      ]),
    )
    .always('memory_consolidation', consolidateWith());
  const memory = MemoryManager.open({ repoRoot: repo, llm });
  const h = memory.beginTurn({ intent: 'general_chat', userText: `From now on, answer first. ${HOSTILE}` });
  memory.completeTurn(h, 'ok');
  await memory.processDue({ force: true });
  const items = memory.list();
  expect(items).toHaveLength(1);
  await memory.close();
  const trigger = /CREATE TRIGGER memory_items_append_only[\s\S]*?END;/u.exec(SCHEMA_SQL)![0];
  withRawDb(dbPathOf(repo), (db) => {
    db.exec('DROP TRIGGER memory_items_append_only');
    db.prepare('UPDATE memory_items SET title = ? WHERE id = ?').run(`answers ${HOSTILE}`, items[0]!.id);
    db.exec(trigger);
  });
  writeFileSync(join(repo, '.autopatch-j', 'cli_history'), `recalled ${HOSTILE}\n`);
  return { repo, id: items[0]!.id };
}

describe('nothing hostile reaches the terminal (one neutralizer for every output path)', () => {
  it('spinner label, debug lines, recalled history, tables and answers in a session on a pty', async () => {
    const { repo } = await hostileRepo();
    fake.server.always(
      byRole({
        main: (r) => {
          const last = r.body.messages!.at(-1)!;
          if (last.role === 'tool') return { text: `done ${HOSTILE}`, delayMs: 500 };
          return {
            text: '',
            toolCalls: [{ name: `read_file${HOSTILE}`, arguments: `{"path":"${HOSTILE.replace(/[\u0000-\u001f\\"]/g, '')}"}` }],
          };
        },
      }),
    );
    const result = await drive(
      [
        { wait: 'autopatch-j> ' },
        { send: '\u001b[A' },
        { wait: 'recalled \\x1b]52' },
        { send: '\u0015' },
        { send: 'use a tool please\r' },
        { wait: 'done \\x1b]52' },
        { wait: 'autopatch-j> ' },
        { send: '/memory list\r' },
        { wait: 'answers \\x1b]52' },
        { wait: 'autopatch-j> ' },
        { send: '/memory status\r' },
        { wait: 'Memory: healthy' },
        { wait: 'autopatch-j> ' },
        { send: '\u0004' },
      ],
      ['--repo', repo],
      { AUTOPATCH_LLM_BASE_URL: fake.server.url, AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_DEBUG: 'true' },
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    // The tool name was shown (debug line and spinner), made visible.
    expect(result.transcript).toContain('[debug] tool read_file\\x1b]52;c;SGFja2Vk\\x07\\x1b[2J\\x9b31m\\u202eEVIL\\r\\x7f');
    expect(result.transcript.split('read_file\\x1b]52').length).toBeGreaterThan(2);
    expectClean(result.transcript);
  });

  it('degraded reasons, error messages and --json output on a pty', async () => {
    const { repo, id } = await hostileRepo();
    const broken = tempRepo();
    const memory = openMemory({ repoRoot: broken });
    await memory.close();
    withRawDb(dbPathOf(broken), (db) => db.exec(`CREATE TABLE "t${HOSTILE}" (x)`));
    const runs = [
      await drive([], ['memory', 'status', '--repo', broken]),
      await drive([], ['memory', 'status', '--json', '--repo', broken]),
      await drive([], ['memory', 'show', `mem-${HOSTILE}`, '--repo', repo]),
      await drive([], ['memory', 'show', id, '--repo', repo]),
      await drive([], ['memory', 'list', '--json', '--repo', repo]),
      await drive([], ['memory', 'show', id, '--json', '--repo', repo]),
    ];
    expect(runs[0]!.transcript).toContain('unknown table t\\x1b]52');
    expect(runs[1]!.transcript).toContain('\\u009b31m\\u202eEVIL');
    expect(runs[2]!.transcript).toContain("No memory matches id 'mem-\\x1b]52");
    expect(runs[4]!.transcript).toContain('answers \\u001b]52;c;SGFja2Vk\\u0007\\u001b[2J\\u009b31m\\u202eEVIL\\r\\u007f');
    for (const run of runs) expectClean(run.transcript);
  });
});

describe('--json escapes C1 and bidi controls, and stays the same JSON value', () => {
  it('\\u009b and \\u202e are escaped', () => {
    const value = { title: `a\u009bb\u202ec\u2066d\u007f` };
    const text = safeJson(value);
    expect(text).toContain('a\\u009bb\\u202ec\\u2066d\\u007f');
    expect(text).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('the neutralizer makes bidi marks and separators visible too', () => {
    expect(safeTerminalText('a\u200fb\u061cc\u2028d')).toBe('a\\u200fb\\u061cc\\u2028d');
  });
});

describe('the CLI history file', () => {
  it('is never read or written through a symbolic link', () => {
    const repo = tempRepo();
    const outside = join(tempRepo('autopatch-j-outside-'), 'target');
    writeFileSync(outside, 'outside\n');
    mkdirSync(join(repo, '.autopatch-j'));
    const path = join(repo, '.autopatch-j', 'cli_history');
    symlinkSync(outside, path);
    expect(saveHistory(path, 'typed secret')).toMatch(/symbolic link/);
    expect(loadHistory(path, 10)).toEqual([]);
    expect(readFileSync(outside, 'utf8')).toBe('outside\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it('a single-line request that looks like a multi-line entry comes back as typed', () => {
    const path = join(tempRepo(), 'cli_history');
    const typed = ['{"lines": ["a", "b"]}', '{"lines":["x"]} and more', 'plain', 'two\nlines'];
    for (const line of typed) expect(saveHistory(path, line)).toBeNull();
    expect(loadHistory(path, 10)).toEqual([...typed].reverse());
  });

  it('is created 0600 whatever the umask, and recalled lines are neutralized', () => {
    const repo = tempRepo();
    const path = join(repo, 'cli_history');
    const old = process.umask(0o022);
    try {
      expect(saveHistory(path, `line ${HOSTILE}`)).toBeNull();
    } finally {
      process.umask(old);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // A CR breaks the entry into lines (recalled as one multi-line entry), each line neutralized on its own.
    const recalled = loadHistory(path, 10);
    expect(recalled).toEqual([`line ${HOSTILE}`.split('\r').map(safeTerminalText).join('\n')]);
    for (const bad of FORBIDDEN) expect(recalled[0]).not.toContain(bad);
    chmodSync(path, 0o600);
  });
});

describe('exit codes of storage failures', () => {
  it('.autopatch-j as a file: exit 1 with the cause and the fix, not the usage code', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, '.autopatch-j'), 'a file');
    const run = await runCli(['memory', 'status', '--repo', repo]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not a folder/);
    expect(run.stderr).toMatch(/fix: move/);
    expect(run.stderr).not.toMatch(/clear --confirm/);
  });

  it('the MCP server too: a storage error exits 1 with the fix, nothing on stdout', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, '.autopatch-j'), 'a file');
    const run = await runCli(['mcp', '--repo', repo]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/autopatch-j mcp: .*is not a folder \(fix: move/);
    expect(run.stdout).toBe('');
  });

  it('a symbolic link for .autopatch-j: never followed, the folder is not used (issue "Safe hands"), nothing written outside', async () => {
    const repo = tempRepo();
    const outside = tempRepo('autopatch-j-outside-');
    symlinkSync(outside, join(repo, '.autopatch-j'));
    const run = await runCli(['memory', 'list', '--repo', repo]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/Memory is not used: .*\.autopatch-j is a symbolic link; .*Move it aside: mv /);
    expect(run.stderr).not.toMatch(/clear --confirm/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a base URL with credentials never shows them, in debug output or the export', async () => {
    const repo = tempRepo();
    const url = new URL(fake.server.url);
    const secretUrl = `http://user:PASS-77@${url.host}/v1?api_key=QSECRET`;
    const env = { AUTOPATCH_LLM_BASE_URL: secretUrl, AUTOPATCH_LLM_API_KEY: 'k', AUTOPATCH_DEBUG: 'true' };
    const ask = await runCli(['ask', '--repo', repo, 'hello'], { env });
    const status = await runCli(['memory', 'status', '--repo', repo], { env });
    const exported = await runCli(['memory', 'export', '--json', '--repo', repo], { env });
    const file = readFileSync((JSON.parse(exported.stdout) as { path: string }).path, 'utf8');
    for (const text of [ask.stdout, ask.stderr, status.stdout, status.stderr, file]) {
      expect(text).not.toContain('PASS-77');
      expect(text).not.toContain('QSECRET');
    }
  });
});
