import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const mounted: string[] = [];

function unmount(dir: string): void {
  // Lazy unmount: a file a failed test left open must not keep the mount alive.
  spawnSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
}

afterEach(() => {
  while (mounted.length > 0) unmount(mounted.pop()!);
});
process.once('exit', () => {
  for (const dir of mounted) spawnSync('umount', ['-l', dir]);
});

let probed: string | null | undefined;

/**
 * Why a small file system cannot be mounted here (null when it can). Disk-full tests need root, to mount a
 * tmpfs of a few megabytes; elsewhere they are skipped with this reason printed.
 */
export function smallFsUnavailable(): string | null {
  if (probed !== undefined) return probed;
  if (process.platform !== 'linux') return (probed = `disk-full tests need Linux (running on ${process.platform})`);
  if (process.getuid?.() !== 0) return (probed = 'disk-full tests need root to mount a small tmpfs (run npm test as root, as CI does)');
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-fs-probe-'));
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return (probed = `cannot mount a tmpfs here: ${(result.stderr || result.error?.message || 'mount failed').trim()}`);
  }
  unmount(dir);
  return (probed = null);
}

/** Mounts a fresh tmpfs of `kb` kilobytes, unmounted after the test even when it fails. */
export function smallFs(kb: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'autopatch-j-fs-'));
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0755`, 'tmpfs', dir], { encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mount failed: ${result.stderr}`);
  }
  mounted.push(dir);
  return dir;
}

/** Fills the file system that holds `dir` until ENOSPC, then frees `leaveBytes`. Returns the filler path. */
export function fillDisk(dir: string, leaveBytes = 0): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      try {
        if (writeSync(fd, chunk) < chunk.length) break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
    // Fill the last partial chunk too.
    for (let size = 32 * 1024; size >= 512; size /= 2) {
      try {
        while (writeSync(fd, chunk, 0, size) === size);
      } catch {
        // Full at this granularity; try smaller writes.
      }
    }
    if (leaveBytes > 0) ftruncateSync(fd, Math.max(0, statSync(filler).size - leaveBytes));
  } finally {
    closeSync(fd);
  }
  return filler;
}
