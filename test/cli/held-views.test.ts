import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderStatus } from '../../src/cli/render/memory-views.js';
import { MemoryManager } from '../../src/memory/manager.js';
import { renderRefused, renderSuggestions } from '../../src/cli/render/held-views.js';
import type { RefusedCandidate, SuggestedCandidate } from '../../src/memory/types.js';
import { shortCandidateId } from '../../src/shared/ids.js';

const ESC = '\u001b';

function suggestion(over: Partial<SuggestedCandidate> = {}): SuggestedCandidate {
  return {
    candidateId: 'job-1m8s14tt5yeq1s7n#s1',
    kind: 'user_preference',
    title: '先跑 lint 再提交',
    content: '先跑 lint 再提交',
    quote: '能不能以后都先跑 lint 再提交？',
    reason: 'polite_request',
    turnId: 'turn-1m8s14tr3y91y1gs',
    at: Date.UTC(2026, 11, 1, 12, 0, 0),
    ...over,
  };
}

describe('M-5.7 memory suggestions and refused, as text', () => {
  it('each suggestion: short name, kind, title, quote, reason, full id and the commands of the surface', () => {
    const s = suggestion();
    const short = shortCandidateId(s.candidateId);
    const text = renderSuggestions([s], 'session');
    const lines = text.split('\n');
    expect(lines[1]).toBe(`  ${short}  preference  "先跑 lint 再提交" — from "能不能以后都先跑 lint 再提交？"`);
    expect(lines[2]).toBe('    held because: polite_request (a standing wish asked as a question)');
    expect(lines[3]).toMatch(
      new RegExp(`^ {4}/memory keep ${short} · /memory dismiss ${short} {3}\\(.+, id job-1m8s14tt5yeq1s7n#s1\\)$`, 'u'),
    );
    expect(lines.at(-1)).toBe('1 suggestion.');
    expect(text, 'content equal to the title is not repeated').not.toContain('would remember');
    expect(renderSuggestions([s], 'shell')).toContain(`autopatch-j memory keep ${short} · autopatch-j memory dismiss ${short}`);
    expect(renderSuggestions([], 'session')).toMatch(/^No suggestions\./u);
  });

  it('stored text is neutralized, folded to one line and clipped', () => {
    const text = renderSuggestions(
      [
        suggestion({
          title: `red${ESC}[31m title\nsecond line`,
          content: `clear${ESC}[2J screen`,
          quote: `${'很长的一句话'.repeat(30)}\r\n${ESC}]0;owned\u0007`,
          reason: `weird${ESC}[1m`,
        }),
      ],
      'session',
    );
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('\u0007');
    expect(text).not.toContain('\r');
    const lines = text.split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('title second line');
    expect(lines[1]).toContain('…"');
    expect(lines[2]).toContain('would remember');
  });

  it('a refusal says whether keep may overrule it: the commands for a reading, none for provenance', () => {
    const base: Omit<RefusedCandidate, 'candidateId' | 'reason' | 'keepable'> = {
      kind: 'user_preference',
      title: '用英文回答',
      quote: '这次用英文回答就行。',
      turnId: 'turn-x',
      at: Date.UTC(2026, 11, 1, 12, 0, 0),
    };
    const reading: RefusedCandidate = { ...base, candidateId: 'job-a#1', reason: 'temporary', keepable: true };
    const provenance: RefusedCandidate = { ...base, candidateId: 'job-a#2', reason: 'quote_not_found', keepable: false };
    const text = renderRefused([reading, provenance], 'session');
    const [first, second] = text.split(`  ${shortCandidateId(provenance.candidateId)}  `);
    expect(first).toContain(`can be kept (you overrule how it was read): /memory keep ${shortCandidateId(reading.candidateId)}`);
    expect(second).toContain('reason: quote_not_found');
    expect(second).toContain('cannot be kept');
    expect(second).not.toContain('/memory keep');
  });
});

describe('M-5.7 memory status points to the suggestions command of its surface', () => {
  it('/memory suggestions in a session, autopatch-j memory suggestions in the shell', async () => {
    const repoRoot = mkdtempSync(join(tmpdir(), 'apj-status-'));
    const memory = MemoryManager.open({ repoRoot });
    try {
      const status = { ...memory.status(), suggestions: 2 };
      const line = (surface: 'session' | 'shell'): string | undefined =>
        renderStatus(status, { debug: false, repoRoot, surface })
          .split('\n')
          .find((l) => l.includes('suggestions'));
      expect(line('session')).toBe('  suggestions    2 held for your decision — /memory suggestions lists them (keep or dismiss)');
      expect(line('shell')).toContain('— autopatch-j memory suggestions lists them');
    } finally {
      await memory.close();
      rmSync(repoRoot, { recursive: true, force: true });
    }
  });
});
