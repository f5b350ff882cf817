import { describe, expect, it } from 'vitest';
import { judgeDiscussion, judgeStatement } from '../../../src/memory/pipeline/gate/gate.js';
import { GATE_RULES } from '../../../src/memory/pipeline/gate/rules.js';
import { REASON_VERDICT } from '../../../src/memory/pipeline/gate/verdict.js';

/**
 * M-5.6 / M-5.7: every rule of the gate is a named entry of GATE_RULES with its own sentences; this one loop
 *
 * checks each sentence gets the rule's reason and verdict.
 */
function verdictOf(
  text: string,
  kind: 'user_preference' | 'project_decision' | 'discussion_context',
  quote: string | undefined,
  next: string | null,
): { reason: string; verdict: string } {
  const begin = quote === undefined ? 0 : text.indexOf(quote);
  if (begin < 0) throw new Error(`quote not in ${text}`);
  const end = quote === undefined ? text.length : begin + quote.length;
  const found =
    kind === 'discussion_context' ? judgeDiscussion([{ text, begin, end }], next) : judgeStatement(text, begin, end, kind, next);
  return found === null ? { reason: 'accept', verdict: 'accept' } : { reason: found.reason, verdict: found.verdict };
}

describe('M-5.6 / M-5.7 the rule table', () => {
  it('names each rule once, with a known reason and the verdict that reason gives by default or says otherwise', () => {
    expect(new Set(GATE_RULES.map((r) => r.name)).size).toBe(GATE_RULES.length);
    for (const rule of GATE_RULES) {
      expect(rule.fires.length, rule.name).toBeGreaterThan(0);
      if (rule.reason !== 'accept') expect(rule.reason in REASON_VERDICT, rule.name).toBe(true);
    }
  });

  for (const rule of GATE_RULES) {
    for (const example of [...rule.fires, ...(rule.stands ?? [])]) {
      const want = rule.fires.includes(example) ? { reason: rule.reason, verdict: rule.verdict } : { reason: 'accept', verdict: 'accept' };
      it(`${rule.name}: ${JSON.stringify(example)} → ${want.reason}`, () => {
        expect(verdictOf(example, rule.kind, rule.quote, rule.next ?? null)).toEqual(want);
      });
    }
  }
});
