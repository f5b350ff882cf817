import type { ChatRequest, ChatResponse } from '../../src/index.js';
import type { ConsolidationPayload, ExtractionPayload } from '../../src/memory/pipeline/contracts.js';

export type ExtractionTurn = ExtractionPayload['turns'][number];

export function extractionPayload(request: ChatRequest): ExtractionPayload {
  return JSON.parse(request.messages[1]!.content) as ExtractionPayload;
}

export function consolidationPayload(request: ChatRequest): ConsolidationPayload {
  return JSON.parse(request.messages[1]!.content) as ConsolidationPayload;
}

/** An extraction reply built from the payload: one or more candidates per turn, or none. */
export function extractWith(
  build: (turn: ExtractionTurn, payload: ExtractionPayload) => object[] = () => [],
  compaction = (payload: ExtractionPayload): string => `summary up to ${payload.turns.at(-1)!.sequence}`,
): (request: ChatRequest) => ChatResponse {
  return (request) => {
    const payload = extractionPayload(request);
    const candidates = payload.turns.flatMap((t) => build(t, payload));
    return { content: JSON.stringify({ thread_compaction: compaction(payload), candidates }) };
  };
}

/** A user-quoted candidate whose quote is the whole user text of the turn. */
export function quoteUser(kind: string, title: string, turn: ExtractionTurn, quote = turn.user): object {
  return { kind, title, content: title, aliases: [], sources: [{ turn_id: turn.turn_id, role: 'user', quote }] };
}

/** A consolidation reply that creates one item per candidate (or what `decide` returns). */
export function consolidateWith(
  decide?: (candidate: ConsolidationPayload['candidates'][number], payload: ConsolidationPayload) => object,
): (request: ChatRequest) => ChatResponse {
  return (request) => {
    const payload = consolidationPayload(request);
    const operations = payload.candidates.map((c) =>
      decide
        ? decide(c, payload)
        : {
            operation: 'create',
            candidate_ids: [c.candidate_id],
            target_id: null,
            title: c.title,
            content: c.content,
            synopsis: '',
            aliases: c.aliases,
            keywords: [],
          },
    );
    return { content: JSON.stringify({ operations }) };
  };
}

/**
 * A project Memory holding one usable preference ("先给结论", from the user's "以后先给结论。"), built through
 * the public API with a scripted model. The manager is returned open; the caller closes it.
 */
export async function memoryWithOnePreference(repo: string): Promise<import('../../src/index.js').MemoryManager> {
  const { MemoryManager, ScriptedLlm } = await import('../../src/index.js');
  const llm = new ScriptedLlm()
    .always(
      'memory_extraction',
      extractWith((t) => [quoteUser('user_preference', '先给结论', t)]),
    )
    .always('memory_consolidation', consolidateWith());
  const memory = MemoryManager.open({ repoRoot: repo, llm });
  memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: '以后先给结论。' }), 'ok');
  await memory.processDue({ force: true });
  return memory;
}
