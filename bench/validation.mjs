// Candidates for the validation row of the benchmark: every labelled candidate of the gate corpus, with its
// turns as the validator sees them (in memory; no SQLite in the timed part).
import { readFileSync } from 'node:fs';

const KINDS = { p: 'user_preference', d: 'project_decision', c: 'discussion_context' };

/** The corpus items as [kind, text, options] (quality/eval/gate.ts reads the same format for the evaluation). */
function corpusItems(path) {
  const corpus = JSON.parse(readFileSync(path, 'utf8'));
  return Object.values(corpus.items).flatMap((list) =>
    list.map(([, kind, text, , options = {}]) => ({ kind: KINDS[kind], text, options })),
  );
}

export function validationInputs(corpusPath) {
  return corpusItems(corpusPath).map((item, i) => {
    const o = item.options;
    const turns = new Map();
    turns.set(`u${i}`, {
      id: `u${i}`,
      threadId: 't',
      sequence: 2,
      state: 'completed',
      userText: item.text,
      assistantText: o.answer ?? 'OK',
    });
    const sources = o.assistantOnly
      ? [{ turn_id: `u${i}`, role: 'assistant', quote: o.answer ?? '' }]
      : [{ turn_id: `u${i}`, role: 'user', quote: o.quote ?? item.text }];
    if (o.proposal !== undefined) {
      turns.set(`p${i}`, { id: `p${i}`, threadId: 't', sequence: 1, state: 'completed', userText: '?', assistantText: o.proposal });
      sources.push({ turn_id: `p${i}`, role: 'assistant', quote: o.proposalQuote ?? o.proposal });
    }
    const title = (o.title ?? o.proposalQuote ?? o.quote ?? item.text).slice(0, 150);
    return {
      candidate: { kind: item.kind, title, content: o.content ?? title, aliases: [], sources },
      context: { threadId: 't', turns, adjacent: null },
    };
  });
}
