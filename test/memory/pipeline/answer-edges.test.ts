import { describe, expect, it } from 'vitest';
import { readConsolidationAnswer, readExtractionAnswer } from '../../../src/memory/pipeline/contracts.js';
import { locateQuote } from '../../../src/memory/pipeline/quote-location.js';
import { ModelAnswerError } from '../../../src/shared/model-json.js';

/** Edge cases of the one answer reader and the quote location (INTERFACES.md §2, M-5.5) found in review. */

const problem = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (error) {
    return error instanceof ModelAnswerError ? error.problem : String(error);
  }
};

const candidate = (quote: string) => ({
  kind: 'user_preference',
  title: 't',
  content: 'c',
  aliases: [],
  sources: [{ turn_id: '1', role: 'user', quote }],
});

describe('the answer reader on real-world text', () => {
  it('three backticks inside a quoted string of a pretty-printed answer are text, not a fence', () => {
    const read = readExtractionAnswer(
      JSON.stringify({ thread_compaction: 'x', candidates: [candidate('wrap code in ```ts fences')] }, null, 2),
    );
    expect(read.candidates).toHaveLength(1);
    expect(read.candidates[0]!.sources[0]!.quote).toBe('wrap code in ```ts fences');
  });

  it('a stray "{" in the prose before the answer does not make it look cut off', () => {
    for (const text of [
      'The user mentioned the `{` key in Vim.\n{"thread_compaction":"x","candidates":[]}',
      'Done :{ nothing much\n{"thread_compaction":"x","candidates":[]}',
    ]) {
      expect(readExtractionAnswer(text, 'stop').compaction).toBe('x');
    }
  });

  it('an answer really cut off is truncated even when complete pieces of it parse (never a silent empty answer)', () => {
    expect(
      problem(() =>
        readExtractionAnswer(
          '{"thread_compaction":"x","candidates":[{"kind":"user_preference","title":"a","content":"b","aliases":[],"sources":[{"turn_id":"1","role":"user","quote":"q"}]},{"kind":"user_pref',
        ),
      ),
    ).toBe('truncated');
    expect(problem(() => readExtractionAnswer('{"a":1} and then {"candidates": ['))).toBe('truncated');
  });

  it('an empty "[]" in prose is not a second answer', () => {
    const read = readExtractionAnswer(
      'Nothing to store this time, so candidates is [].\n{"thread_compaction": "user asked about X", "candidates": []}',
    );
    expect(read.compaction).toBe('user asked about X');
  });

  it('a consolidation wrapper beside a "summary" key is opened (extraction aliases do not apply to consolidation)', () => {
    const read = readConsolidationAnswer(
      '{"summary": "one create", "result": {"operations": [{"operation":"create","candidate_ids":["c1"],"title":"a","content":"b"}]}}',
    );
    expect(read.operations).toHaveLength(1);
  });
});

describe('M-5.5 quote location with combining marks', () => {
  it('a composed accent finds a decomposed one and back, and stores the RAW span', () => {
    const decomposed = 'I prefer cafe\u0301 for naming';
    const [span] = locateQuote(decomposed, 'I prefer café');
    expect(decomposed.slice(span!.begin, span!.end)).toBe('I prefer cafe\u0301');
    expect(locateQuote('I prefer café', 'I prefer cafe\u0301')).toHaveLength(1);
  });
});
