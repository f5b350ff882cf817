import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRefusedError, updateMarkedBlock, withMarkedBlock, writeProjectFile } from '../../src/workspace/marked-block.js';
import { tempRepo } from '../helpers/temp-repo.js';

const MARKERS = { start: '<!-- x:start -->', end: '<!-- x:end -->' };

describe('a marked block inside a file people edit', () => {
  it('is appended after a blank line, or is the whole of a new file', () => {
    expect(withMarkedBlock(null, MARKERS, 'body').toString()).toBe('<!-- x:start -->\nbody\n<!-- x:end -->\n');
    expect(withMarkedBlock(Buffer.from('# T'), MARKERS, 'b').toString()).toBe('# T\n\n<!-- x:start -->\nb\n<!-- x:end -->\n');
    expect(withMarkedBlock(Buffer.from('# T\n'), MARKERS, 'b').toString()).toBe('# T\n\n<!-- x:start -->\nb\n<!-- x:end -->\n');
    expect(withMarkedBlock(Buffer.from('# T\n\n'), MARKERS, 'b').toString()).toBe('# T\n\n<!-- x:start -->\nb\n<!-- x:end -->\n');
    // CRLF files get CRLF block lines.
    expect(withMarkedBlock(Buffer.from('# T\r\n'), MARKERS, 'a\nb').toString()).toBe(
      '# T\r\n\r\n<!-- x:start -->\r\na\r\nb\r\n<!-- x:end -->\r\n',
    );
  });

  it('replaces only the bytes between the markers: everything outside stays byte for byte, even non-UTF-8', () => {
    const before = Buffer.concat([Buffer.from('caf\xe9 r\xe8gle\r\n', 'latin1'), Buffer.from('<!-- x:start -->\nold\n<!-- x:end -->')]);
    const after = Buffer.from('\r\n  trailing text without newline', 'utf8');
    const next = withMarkedBlock(Buffer.concat([before, after]), MARKERS, 'new\nlines');
    const prefix = Buffer.from('caf\xe9 r\xe8gle\r\n', 'latin1');
    expect(next.subarray(0, prefix.length).equals(prefix)).toBe(true);
    expect(next.subarray(next.length - after.length).equals(after)).toBe(true);
    expect(next.subarray(prefix.length, next.length - after.length).toString()).toBe('<!-- x:start -->\r\nnew\r\nlines\r\n<!-- x:end -->');
  });

  it('counts a marker only when it stands alone on its line: one quoted inside a sentence is text', () => {
    const sentence = 'The memory block sits between `<!-- x:start -->` and `<!-- x:end -->`; do not edit it.\n';
    expect(withMarkedBlock(Buffer.from(sentence), MARKERS, 'b').toString()).toBe(`${sentence}\n<!-- x:start -->\nb\n<!-- x:end -->\n`);
    const withBlock = `${sentence}\n<!-- x:start -->  \nold\n  <!-- x:end -->\r\nafter <!-- x:end --> here\n`;
    expect(withMarkedBlock(Buffer.from(withBlock), MARKERS, 'new').toString()).toBe(
      `${sentence}\n<!-- x:start -->\r\nnew\r\n<!-- x:end -->\r\nafter <!-- x:end --> here\n`,
    );
    // Markers inside a line never make a second block either.
    expect(() => withMarkedBlock(Buffer.from(`${sentence}<!-- x:start -->\n<!-- x:end -->\n`), MARKERS, 'c')).not.toThrow();
  });

  it('refuses a file with two blocks, or an end before the start', () => {
    const twice = Buffer.from('<!-- x:start -->\na\n<!-- x:end -->\n<!-- x:start -->\nb\n<!-- x:end -->\n');
    expect(() => withMarkedBlock(twice, MARKERS, 'c')).toThrow(/2 '<!-- x:start -->' and 2 '<!-- x:end -->'/);
    expect(() => withMarkedBlock(Buffer.from('<!-- x:end -->\n<!-- x:start -->\n'), MARKERS, 'c')).toThrow(FileRefusedError);
    expect(() => withMarkedBlock(Buffer.from('<!-- x:start -->\nno end\n'), MARKERS, 'c')).toThrow(FileRefusedError);
  });

  it('gives a body function the current block as text, and refuses a block that is not UTF-8', () => {
    const seen: (string | null)[] = [];
    const body = (current: string | null): string => (seen.push(current), 'next');
    expect(withMarkedBlock(Buffer.from('# T\r\n<!-- x:start -->\r\na\r\n\r\nb\r\n<!-- x:end -->\r\n'), MARKERS, body).toString()).toBe(
      '# T\r\n<!-- x:start -->\r\nnext\r\n<!-- x:end -->\r\n',
    );
    withMarkedBlock(null, MARKERS, body);
    expect(seen).toEqual(['a\n\nb', null]);
    const latin1 = Buffer.concat([Buffer.from('<!-- x:start -->\ncaf'), Buffer.from([0xe9]), Buffer.from('\n<!-- x:end -->\n')]);
    expect(() => withMarkedBlock(latin1, MARKERS, body)).toThrow(/the marked block is not UTF-8 text/);
  });

  it('writes atomically: same mode, no temp file left, and nothing at all when the block is already there', () => {
    const repo = tempRepo();
    const file = join(repo, 'AGENTS.md');
    writeFileSync(file, '# Rules\n');
    chmodSync(file, 0o640);
    const first = updateMarkedBlock(repo, 'AGENTS.md', MARKERS, 'one');
    expect(first).toEqual({ path: file, changed: true, created: false });
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(repo)).toEqual(['AGENTS.md']);
    const written = readFileSync(file);
    const { ino, mtimeMs } = statSync(file);
    expect(updateMarkedBlock(repo, 'AGENTS.md', MARKERS, 'one')).toEqual({ path: file, changed: false, created: false });
    expect(readFileSync(file).equals(written)).toBe(true);
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });
    expect(updateMarkedBlock(tempRepo(), 'AGENTS.md', MARKERS, 'x').created).toBe(true);
  });

  it('follows a link that stays inside the project; refuses one that leaves it or leads to nothing', () => {
    const repo = tempRepo();
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'docs', 'AGENTS.md'), '# Docs\n');
    symlinkSync('docs/AGENTS.md', join(repo, 'AGENTS.md'));
    expect(updateMarkedBlock(repo, 'AGENTS.md', MARKERS, 'in').path).toBe(join(repo, 'docs', 'AGENTS.md'));
    expect(lstatSync(join(repo, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo, 'AGENTS.md'))).toBe('docs/AGENTS.md');
    expect(readFileSync(join(repo, 'docs', 'AGENTS.md'), 'utf8')).toContain('in');

    const other = tempRepo();
    const outside = tempRepo();
    writeFileSync(join(outside, 'victim.md'), 'VICTIM\n');
    symlinkSync(join(outside, 'victim.md'), join(other, 'AGENTS.md'));
    expect(() => updateMarkedBlock(other, 'AGENTS.md', MARKERS, 'x')).toThrow(/leads outside the project/);
    expect(readFileSync(join(outside, 'victim.md'), 'utf8')).toBe('VICTIM\n');
    expect(() => writeProjectFile(other, join(other, 'AGENTS.md'), Buffer.from('x'))).toThrow(/leads outside the project/);
    mkdirSync(join(other, '.autopatch-j'));
    symlinkSync('.autopatch-j/memory.md', join(other, 'M.md'));
    writeFileSync(join(other, '.autopatch-j', 'memory.md'), '');
    expect(() => writeProjectFile(other, join(other, 'M.md'), Buffer.from('x'))).toThrow(/leads into .autopatch-j/);
    const dangling = tempRepo();
    symlinkSync(join(dangling, 'nowhere.md'), join(dangling, 'AGENTS.md'));
    expect(() => updateMarkedBlock(dangling, 'AGENTS.md', MARKERS, 'x')).toThrow(/a link to nothing/);
    expect(readdirSync(outside)).toEqual(['victim.md']);
  });
});
