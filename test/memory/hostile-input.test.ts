import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from '../../src/index.js';
import { LlmCallError, rawDiagnostic } from '../../src/llm/diagnostics.js';
import { describeError } from '../../src/shared/errors.js';
import { redactSecrets } from '../../src/shared/redact.js';
import { consolidateWith, extractWith, quoteUser } from '../helpers/scripted.js';
import { tempRepo } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

describe('provenance excerpts survive a NUL character (M-7.6)', () => {
  it('a NUL before the quoted words does not cut the excerpt', async () => {
    const repo = tempRepo();
    const quote = '以后回答先给结论。';
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [quoteUser('user_preference', '回答先给结论', t, quote)]),
      )
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    const h = memory.beginTurn({ intent: 'general_chat', userText: `pasted\u0000bytes then: ${quote} and more` });
    memory.completeTurn(h, 'ok');
    await memory.processDue({ force: true });
    const [item] = memory.list();
    const detail = memory.show(item!.id);
    expect(detail.sources[0]!.excerpt).toBe(`pasted\u0000bytes then: ${quote} and more`);
  });
});

describe('diagnostics never carry credentials', () => {
  const secretUrl = 'http://alice:PASS-123@llm.example:8080/v1/chat/completions?api_key=SECRET-KEY&model=x&token=TOK-9';

  it('URL user info and secret query parameters are redacted; other text stays', () => {
    const shown = redactSecrets(`request to ${secretUrl} failed`);
    expect(shown).toBe('request to http://***@llm.example:8080/v1/chat/completions?api_key=***&model=x&token=*** failed');
    expect(redactSecrets('Authorization: Bearer sk-abcdefghijklmnop')).toBe('Authorization: Bearer ***');
    expect(redactSecrets('plain https://example.com/path?q=1')).toBe('plain https://example.com/path?q=1');
  });

  it('rawDiagnostic and describeError redact messages and causes; the provider body stays RAW (M-9.5)', () => {
    const cause = new TypeError(`Request cannot be constructed from a URL that includes credentials: ${secretUrl}`);
    const error = new LlmCallError(
      `Connection error to ${secretUrl}`,
      {
        purpose: 'memory_extraction',
        policy: { stream: false, reasoning: false },
        durationMs: 3,
        kind: 'network',
        body: 'provider says token=BODY-TOKEN',
      },
      { cause },
    );
    const raw = rawDiagnostic(error);
    for (const secret of ['PASS-123', 'SECRET-KEY', 'TOK-9', 'alice']) expect(raw).not.toContain(secret);
    expect(raw).toContain('response body: provider says token=BODY-TOKEN');
    expect(describeError(cause)).not.toContain('PASS-123');
  });

  it('a failing model call stores no credential in last_error or in the failed turn', async () => {
    const repo = tempRepo();
    const llm = new ScriptedLlm().always('memory_extraction', () => {
      throw new Error(`fetch failed for ${secretUrl}`);
    });
    const memory = openMemory({ repoRoot: repo, llm });
    for (let i = 0; i < 2; i += 1) {
      const h = memory.beginTurn({ intent: 'general_chat', userText: `question ${i}` });
      memory.failTurn(h, new Error(`provider unreachable at ${secretUrl}`));
    }
    await memory.processDue({ force: true });
    const status = memory.status();
    expect(status.lastError).toMatch(/fetch failed/);
    const exported = memory.export();
    const text = (await import('node:fs')).readFileSync(exported.path, 'utf8');
    for (const secret of ['PASS-123', 'SECRET-KEY', 'TOK-9']) {
      expect(status.lastError).not.toContain(secret);
      expect(text).not.toContain(secret);
    }
  });
});
