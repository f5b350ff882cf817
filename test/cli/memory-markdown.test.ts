import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../helpers/cli.js';
import { buildRichMemory } from '../helpers/rich-memory.js';
import { tempRepo } from '../helpers/temp-repo.js';

interface Entry {
  id: string;
  kind: string;
  title: string;
  content: string;
  quotes: string[];
  date: string;
}

function ok(run: CliRun): CliRun {
  expect(run.code, `stderr: ${run.stderr}`).toBe(0);
  return run;
}

const json = <T>(run: CliRun): T => JSON.parse(ok(run).stdout) as T;

async function richRepo(): Promise<string> {
  const repo = tempRepo();
  await buildRichMemory(repo);
  return repo;
}

describe('memory export --markdown (decisions as a reviewable file)', () => {
  it('lists exactly the active preferences and decisions, with the user quotes from memory show, and no other RAW text', async () => {
    const repo = await richRepo();
    const list = json<{ id: string; kind: string }[]>(await runCli(['memory', 'list', '--json', '--repo', repo]));
    const wanted = list.filter((i) => i.kind !== 'discussion_context');
    expect(wanted).toHaveLength(4);
    expect(list.some((i) => i.kind === 'discussion_context')).toBe(true);
    const exported = json<{ entries: Entry[]; markdown: string; path: null }>(
      await runCli(['memory', 'export', '--markdown', '--json', '--repo', repo]),
    );
    expect(exported.path).toBeNull();
    expect(exported.entries.map((e) => e.id).sort()).toEqual(wanted.map((i) => i.id).sort());
    for (const entry of exported.entries) {
      const shown = json<{ kind: string; title: string; content: string; sources: { role: string; quote: string }[] }>(
        await runCli(['memory', 'show', entry.id, '--json', '--repo', repo]),
      );
      expect(entry).toMatchObject({ kind: shown.kind, title: shown.title, content: shown.content });
      expect(entry.quotes).toEqual([...new Set(shown.sources.filter((s) => s.role === 'user').map((s) => s.quote))]);
      expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(exported.markdown).toContain(`\`${entry.id}\` · ${entry.kind} · ${entry.date}`);
    }
    const text = ok(await runCli(['memory', 'export', '--markdown', '--repo', repo])).stdout;
    expect(text).toBe(exported.markdown);
    expect(text).toContain('> 我们决定采用 PostgreSQL 作为主数据库。');
    expect(text).toContain('> Decision: we use pnpm for every install, never npm.');
    // A revised memory carries the words of both revisions.
    expect(text).toContain('> 以后回答先给结论。');
    // Not the discussion, not the forgotten or superseded memories, no answers, no other turns.
    for (const absent of [
      'Redis',
      'emoji',
      '以后代码注释用英文',
      '好的，先给结论',
      'It splits the input',
      'what does the parser do',
      'still waiting',
    ]) {
      expect(text).not.toContain(absent);
    }
    // Markup in a memory is data: it can neither end a marked block nor start a heading of its own.
    expect(text).not.toContain('<!-- autopatch-j:memory:end -->');
    expect(text).toContain('&lt;!-- autopatch-j:memory:end --&gt;');
    expect(text.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Project memory (autopatch-j)',
      '## Project decisions',
      '## User preferences',
    ]);
  });

  it('--out FILE writes the same Markdown once; a second run changes nothing', async () => {
    const repo = await richRepo();
    const stdout = ok(await runCli(['memory', 'export', '--markdown', '--repo', repo])).stdout;
    const out = join(tempRepo(), 'decisions.md');
    expect(ok(await runCli(['memory', 'export', '--markdown', '--out', out, '--repo', repo])).stdout).toMatch(
      /^Wrote 2 decision\(s\), 2 preference\(s\) to .*decisions\.md\./,
    );
    expect(readFileSync(out, 'utf8')).toBe(stdout);
    const { mtimeMs, ino } = statSync(out);
    expect(ok(await runCli(['memory', 'export', '--markdown', '--out', out, '--repo', repo])).stdout).toContain('nothing changed');
    expect(statSync(out)).toMatchObject({ mtimeMs, ino });
    const usage = await runCli(['memory', 'export', '--out', out, '--repo', repo]);
    expect(usage.code).toBe(2);
  });
  it('--out never writes into .autopatch-j/ or .git/, typed or through a link: the Memory and its backups stay intact', async () => {
    const repo = await richRepo();
    mkdirSync(join(repo, '.git'));
    writeFileSync(join(repo, '.git', 'config'), '[core]\n');
    const backup = ok(await runCli(['memory', 'export', '--json', '--repo', repo]));
    const backupPath = (JSON.parse(backup.stdout) as { path: string }).path;
    const listBefore = ok(await runCli(['memory', 'list', '--json', '--repo', repo])).stdout;
    symlinkSync('.autopatch-j/memory.db', join(repo, 'notes.md'));
    mkdirSync(join(repo, 'docs'));
    symlinkSync('../.git', join(repo, 'docs', 'git'));
    const protectedFiles = [join(repo, '.autopatch-j', 'memory.db'), backupPath, join(repo, '.git', 'config')];
    const bytesBefore = protectedFiles.map((f) => readFileSync(f));
    const targets = [
      '.autopatch-j/memory.db',
      relative(repo, backupPath),
      '.autopatch-j/new-file.md',
      './src/../.autopatch-j/exports/other.md',
      join(repo, '.autopatch-j', 'memory.db'),
      'notes.md',
      '.git/config',
      '.git/NEW.md',
      'docs/git/config',
    ];
    for (const out of targets) {
      const run = await runCli(['memory', 'export', '--markdown', '--out', out, '--repo', repo], { cwd: repo });
      expect(run.code, `--out ${out}: ${run.stdout}`).toBe(1);
      expect(run.stderr).toMatch(/export failed: .* (inside|leads into) (\.autopatch-j|\.git)\/.*nothing was written/);
      protectedFiles.forEach((f, i) => expect(readFileSync(f).equals(bytesBefore[i]!), `${f} after --out ${out}`).toBe(true));
    }
    expect(existsSync(join(repo, '.autopatch-j', 'new-file.md'))).toBe(false);
    expect(existsSync(join(repo, '.git', 'NEW.md'))).toBe(false);
    expect(ok(await runCli(['memory', 'list', '--json', '--repo', repo])).stdout).toBe(listBefore);
    expect(ok(await runCli(['memory', 'status', '--json', '--repo', repo])).stdout).not.toContain('malformed');
    // A file of the project next to them is still written.
    ok(await runCli(['memory', 'export', '--markdown', '--out', 'docs/decisions.md', '--repo', repo], { cwd: repo }));
    expect(readFileSync(join(repo, 'docs', 'decisions.md'), 'utf8')).toContain('# Project memory (autopatch-j)');
  });
});

describe('memory export --agents-md (a marked block the team reviews)', () => {
  it('twice leaves AGENTS.md byte-identical the second time and never touches the text outside the block', async () => {
    const repo = await richRepo();
    const file = join(repo, 'AGENTS.md');
    const head = Buffer.from('# Team rules\r\n\r\nUse tabs. \xe9\r\n', 'latin1');
    const tail = Buffer.from('\r\n## More rules (after the block)\r\nNo trailing newline here', 'utf8');
    writeFileSync(
      file,
      Buffer.concat([head, Buffer.from('<!-- autopatch-j:memory:start -->\r\nstale\r\n<!-- autopatch-j:memory:end -->'), tail]),
    );
    const first = ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    expect(first.stdout).toContain('Updated the autopatch-j block in');
    const once = readFileSync(file);
    expect(once.subarray(0, head.length).equals(head)).toBe(true);
    expect(once.subarray(once.length - tail.length).equals(tail)).toBe(true);
    const block = once.subarray(head.length, once.length - tail.length).toString('utf8');
    expect(block.startsWith('<!-- autopatch-j:memory:start -->\r\n')).toBe(true);
    expect(block.endsWith('\r\n<!-- autopatch-j:memory:end -->')).toBe(true);
    expect(block).toContain('## Project memory (autopatch-j)');
    expect(block).toContain('> 我们决定采用 PostgreSQL 作为主数据库。');
    expect(block.split('<!-- autopatch-j:memory:end -->').length).toBe(2);
    const { mtimeMs, ino } = statSync(file);

    const second = ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    expect(second.stdout).toContain('already holds these 4 memories: nothing changed');
    expect(readFileSync(file).equals(once)).toBe(true);
    expect(statSync(file)).toMatchObject({ mtimeMs, ino });

    // A change in Memory changes the block only.
    const pnpm = json<Entry[]>(await runCli(['memory', 'list', '--json', '--repo', repo])).find((e) => e.title.includes('pnpm'))!;
    ok(await runCli(['memory', 'forget', pnpm.id, '--repo', repo]));
    ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    const after = readFileSync(file);
    expect(after.subarray(0, head.length).equals(head)).toBe(true);
    expect(after.subarray(after.length - tail.length).equals(tail)).toBe(true);
    expect(after.toString('utf8')).not.toContain('pnpm');
  });

  it("merges by memory id: teammates' entries stay byte for byte, this Memory's are rewritten, retired ones leave", async () => {
    // A teammate exported their Memory; the block was reviewed (one of their entries reworded) and merged.
    const teammate = await richRepo();
    ok(await runCli(['memory', 'export', '--agents-md', '--repo', teammate]));
    const theirIds = json<{ entries: Entry[] }>(await runCli(['memory', 'export', '--markdown', '--json', '--repo', teammate])).entries.map(
      (e) => e.id,
    );
    const merged = readFileSync(join(teammate, 'AGENTS.md'), 'utf8').replace(
      /(- \*\*我们决定采用 PostgreSQL 作为主数据库\*\*\n[^\n]*\n\n {2}```text\n)  我们决定采用 PostgreSQL 作为主数据库/,
      '$1  PostgreSQL 16 is the main database (reworded in review).',
    );
    expect(merged).toContain('reworded in review');
    const repo = await richRepo();
    const file = join(repo, 'AGENTS.md');
    writeFileSync(file, `# Team rules\n\n${merged}`);
    const chunks = (text: string): Map<string, string> =>
      new Map(
        text
          .split(/\n(?=- \*\*)|\n(?=#)|\n(?=<!-- autopatch-j:memory:end)/)
          .map((chunk) => [/^  `(\w+)` ·/m.exec(chunk)?.[1] ?? '', chunk.trimEnd()] as [string, string])
          .filter(([id]) => id !== ''),
      );
    const theirs = chunks(merged);
    expect([...theirs.keys()].sort()).toEqual([...theirIds].sort());

    const first = ok(await runCli(['memory', 'export', '--agents-md', '--json', '--repo', repo]));
    const mine = (JSON.parse(first.stdout) as { entries: Entry[] }).entries;
    expect(mine).toHaveLength(4);
    const once = readFileSync(file, 'utf8');
    expect(once.startsWith('# Team rules\n\n<!-- autopatch-j:memory:start -->\n')).toBe(true);
    const after = chunks(once);
    // Every teammate entry is still there, byte for byte, the reviewed wording included.
    for (const [id, chunk] of theirs) expect(after.get(id), id).toBe(chunk);
    expect(once).toContain('PostgreSQL 16 is the main database (reworded in review).');
    // This Memory's entries are added, each once, in the section of its kind.
    for (const entry of mine) {
      expect(once.split(`\`${entry.id}\` · ${entry.kind}`).length, entry.id).toBe(2);
      const section = entry.kind === 'project_decision' ? /### Project decisions\n([^]*?)(?=\n### |$)/ : /### User preferences\n([^]*)/;
      expect(section.exec(once)?.[1], entry.id).toContain(`\`${entry.id}\``);
    }
    expect(once.match(/^### Project decisions$/gm)).toHaveLength(1);
    expect(once.match(/^### User preferences$/gm)).toHaveLength(1);
    // Idempotent.
    const second = ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    expect(second.stdout).toContain('nothing changed');
    expect(readFileSync(file, 'utf8')).toBe(once);

    // A reviewer's edit of an entry of this Memory is rewritten from it; a forgotten memory leaves the
    // block, the teammate's entry on the same subject stays.
    const pnpm = mine.find((e) => e.title.includes('pnpm'))!;
    const pg = mine.find((e) => e.title.includes('PostgreSQL'))!;
    writeFileSync(
      file,
      once.replace(
        `\`${pg.id}\` · project_decision · ${pg.date}\n\n  \`\`\`text\n  我们决定采用`,
        `\`${pg.id}\` · project_decision · ${pg.date}\n\n  \`\`\`text\n  EDITED`,
      ),
    );
    expect(readFileSync(file, 'utf8')).toContain('EDITED');
    ok(await runCli(['memory', 'forget', pnpm.id, '--repo', repo]));
    ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    const third = readFileSync(file, 'utf8');
    expect(third).not.toContain('EDITED');
    expect(chunks(third).get(pg.id)).toBe(chunks(once).get(pg.id));
    expect(third).not.toContain(`\`${pnpm.id}\``);
    for (const [id, chunk] of theirs) expect(chunks(third).get(id), id).toBe(chunk);
    expect(third).not.toMatch(/\n\n\n/);
  });

  it('a sentence that quotes the markers is text: the block is appended after it, the sentence stays whole', async () => {
    const repo = await richRepo();
    const file = join(repo, 'AGENTS.md');
    const sentence =
      'The memory block sits between `<!-- autopatch-j:memory:start -->` and `<!-- autopatch-j:memory:end -->`; do not edit it.\n';
    writeFileSync(file, sentence);
    ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${sentence}\n<!-- autopatch-j:memory:start -->\n`)).toBe(true);
    expect(text).toContain('> 我们决定采用 PostgreSQL 作为主数据库。');
    ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo]));
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('creates AGENTS.md when missing; refuses a link out of the project and a file with two blocks, changing nothing', async () => {
    const repo = await richRepo();
    expect(ok(await runCli(['memory', 'export', '--agents-md', '--repo', repo])).stdout).toContain('Created the autopatch-j block');
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toMatch(
      /^<!-- autopatch-j:memory:start -->\n[^]*\n<!-- autopatch-j:memory:end -->\n$/,
    );
    const fresh = tempRepo();
    // Without a Memory there is nothing to export and nothing is created.
    expect(ok(await runCli(['memory', 'export', '--agents-md', '--repo', fresh])).stdout).toContain('No Memory in this project yet');
    expect(existsSync(join(fresh, 'AGENTS.md'))).toBe(false);

    const copy = await richRepo();
    const outside = tempRepo();
    writeFileSync(join(outside, 'AGENTS.md'), 'OUTSIDE\n');
    symlinkSync(join(outside, 'AGENTS.md'), join(copy, 'AGENTS.md'));
    const refused = await runCli(['memory', 'export', '--agents-md', '--repo', copy]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/AGENTS\.md leads outside the project .*it is not followed/);
    expect(readFileSync(join(outside, 'AGENTS.md'), 'utf8')).toBe('OUTSIDE\n');

    const twice = join(repo, 'AGENTS.md');
    const broken = '<!-- autopatch-j:memory:start -->\na\n<!-- autopatch-j:memory:end -->\n<!-- autopatch-j:memory:start -->\n';
    writeFileSync(twice, broken);
    const refusedTwice = await runCli(['memory', 'export', '--agents-md', '--repo', repo, '--json']);
    expect(refusedTwice.code).toBe(1);
    expect(JSON.parse(refusedTwice.stdout)).toMatchObject({ error: 'refused' });
    expect(readFileSync(twice, 'utf8')).toBe(broken);
  });

  it('the slash command in a session does the same: /memory export --agents-md, /memory export --markdown --out FILE', async () => {
    const repo = await richRepo();
    ok(await runCli(['--repo', repo], { input: '/memory export --agents-md\n' }));
    const block = readFileSync(join(repo, 'AGENTS.md'), 'utf8');
    expect(block).toContain('<!-- autopatch-j:memory:start -->');
    const out = join(repo, 'decisions.md');
    ok(await runCli(['--repo', repo], { input: `/memory export --markdown --out ${out}\n` }));
    expect(readFileSync(out, 'utf8')).toBe(ok(await runCli(['memory', 'export', '--markdown', '--repo', repo])).stdout);
  });
});
