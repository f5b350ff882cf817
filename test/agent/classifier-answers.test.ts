import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyIntent } from '../../src/agent/intent-router.js';
import { ScriptedLlm } from '../../src/index.js';

/** INTERFACES.md §2.3 with real answer habits: one reader for every model JSON; anything unreadable falls back safely. */

interface ClassifierCase {
  id: string;
  class: string;
  content: string;
  expect: string;
}

const cases = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/classifier-answers.json'), 'utf8')) as ClassifierCase[];

describe('M-9.8 classifier answers as real models write them', () => {
  it('holds at least 15 cases', () => expect(cases.length).toBeGreaterThanOrEqual(15));
  for (const c of cases) {
    it(`${c.class}: ${c.id} → ${c.expect}`, async () => {
      const llm = new ScriptedLlm().enqueue('classifier', { content: c.content });
      const route = await classifyIntent(llm, 'please look at src/calc.ts');
      expect(route.intent).toBe(c.expect);
      // A fallback always keeps its reason; a readable answer takes none.
      if (route.fallback) expect(route.intent).toBe('general_chat');
    });
  }
});
