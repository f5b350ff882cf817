import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/commands/command-output.js';
import * as api from '../../src/index.js';
import { openMemory } from '../helpers/memory.js';
import { tempRepo } from '../helpers/temp-repo.js';

describe('errors by meaning (INTERFACES.md §1)', () => {
  it('every exported error class carries a stable code and serializes with toJSON', () => {
    const cases: [Error & { code: string; toJSON(): Record<string, unknown> }, string][] = [
      [new api.MemorySchemaError('no active thread'), 'degraded'],
      [new api.MemoryStorageError('disk full', { fix: 'free space', code: 'SQLITE_FULL' }), 'SQLITE_FULL'],
      [new api.MemoryContractError('bad answer', ['missing operations']), 'contract'],
      [new api.MemoryNotFoundError('m1234'), 'not_found'],
      [new api.MemoryLeaseError('fenced'), 'lease_lost'],
      [new api.MemoryIntentError('code_audit'), 'intent'],
      [new api.MemoryClosedError('Memory is closed'), 'closed'],
      [new api.MemoryConflictError('item changed'), 'conflict'],
      [new api.MemoryTimeoutError('timed out'), 'timeout'],
      [new api.ModelAnswerError('empty', 'the answer is empty'), 'model_answer'],
    ];
    for (const [error, code] of cases) {
      expect(error.code).toBe(code);
      const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
      expect(json).toMatchObject({ name: error.name, code, message: error.message });
    }
    expect(new api.MemoryStorageError('x', { code: 'EACCES' }).toJSON()).toMatchObject({ code: 'EACCES' });
    expect(new api.MemoryStorageError('x').code).toBe('storage');
    expect(new api.MemorySchemaError('user_version 3').toJSON()).toMatchObject({ reason: 'user_version 3' });
  });

  it('only races and timeouts are retryable', () => {
    expect(new api.MemoryConflictError('x').retryable).toBe(true);
    expect(new api.MemoryTimeoutError('x').retryable).toBe(true);
    expect(new api.MemoryStorageError('x').retryable).toBe(false);
    expect(new api.MemorySchemaError('x').retryable).toBe(false);
  });

  it('a model answer that cannot be read is not a Memory contract error', () => {
    const error = new api.ModelAnswerError('no_json', 'no JSON');
    expect(error).not.toBeInstanceOf(api.MemoryContractError);
    expect(error).not.toBeInstanceOf(api.MemoryError);
  });

  it('a call on a closed manager throws MemoryClosedError, not a storage error', async () => {
    const memory = openMemory({ repoRoot: tempRepo() });
    await memory.close();
    expect(() => memory.list()).toThrow(api.MemoryClosedError);
    expect(() => memory.status()).toThrow(api.MemoryClosedError);
    expect(() => memory.list()).not.toThrow(api.MemoryStorageError);
  });

  it('the CLI maps codes to exit codes in one table: degraded 3, usage 2, other failures 1', () => {
    expect(exitCodeOf(new api.MemorySchemaError('x'))).toBe(3);
    expect(exitCodeOf(new api.MemoryIntentError('code_audit'))).toBe(2);
    expect(exitCodeOf(new api.MemoryStorageError('x'))).toBe(1);
    expect(exitCodeOf(new api.MemoryClosedError('x'))).toBe(1);
    expect(exitCodeOf(new Error('x'))).toBe(1);
  });
});
