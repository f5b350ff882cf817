import { z } from 'zod';
import { INTENTS, ORDINARY_INTENTS, type OrdinaryIntent, isOrdinaryIntent } from '../../memory/types.js';
import { defineMcpTool } from './mcp-tool.js';

/** Largest user text accepted, in characters: a typed request, not a pasted repository. */
export const MAX_USER_CHARS = 100_000;
/** Largest final answer accepted, in characters. */
export const MAX_ASSISTANT_CHARS = 200_000;

const REPAIR_INTENTS = INTENTS.filter((i) => !isOrdinaryIntent(i));

/** A required text field: a string, not blank, at most `max` characters. */
const turnText = (field: string, what: string, max: number, tooLong: string) =>
  z
    .string({ error: `${field} must be a string: ${what}` })
    .min(1, { error: `${field} is empty: pass ${what}` })
    .max(max, { error: `${field} is longer than ${max} characters: ${tooLong}` })
    .refine((s) => s.trim().length > 0, { error: `${field} is blank: pass ${what}` });

/** Only ordinary intents are accepted; a repair intent gets a refusal that says why (M-1.1). */
const intentField = z
  .enum(ORDINARY_INTENTS as [string, ...string[]], {
    error: (issue) =>
      typeof issue.input === 'string' && (REPAIR_INTENTS as string[]).includes(issue.input)
        ? `'${issue.input}' is a repair intent and is refused: repair work (${REPAIR_INTENTS.join(', ')}) ` +
          'never reads or writes memory, so its turns are not recorded'
        : `intent must be one of ${ORDINARY_INTENTS.join(', ')}`,
  })
  .optional();

/**
 * `memory_record_turn`: a client agent hands over one finished ordinary turn. It goes through the same
 * admission as the CLI (beginTurn + completeTurn, M-3.2), so the same extraction with program-checked
 * provenance and the same consolidation follow. Repair intents never reach Memory (M-1.1).
 */
export const memoryRecordTurnTool = defineMcpTool({
  name: 'memory_record_turn',
  title: 'Record a finished conversation turn',
  description:
    "Hand one finished ordinary turn to project memory: `user` is the user's own words exactly as typed (RAW, not " +
    'paraphrased, not including files you read), `assistant` is the final answer the user saw (no tool output or ' +
    'reasoning). A background step later keeps only explicit preferences ("from now on…", "以后…"), decisions the user ' +
    "confirmed, and discussion context, each checked to quote the user's words; most turns yield nothing, which is normal. " +
    `intent: general_chat (default) or code_explain. Repair work (${REPAIR_INTENTS.join(', ')}) is refused: it never ` +
    `reads or writes memory. Limits: user ≤ ${MAX_USER_CHARS.toLocaleString('en-US')} characters, assistant ≤ ` +
    `${MAX_ASSISTANT_CHARS.toLocaleString('en-US')}. The turn text is stored unredacted in .autopatch-j/memory.db.`,
  input: z.strictObject({
    user: turnText('user', "the user's own words of this turn", MAX_USER_CHARS, "record the user's own words, not pasted files"),
    assistant: turnText(
      'assistant',
      'the final answer the user saw',
      MAX_ASSISTANT_CHARS,
      'record the final answer the user saw, not tool output',
    ),
    intent: intentField,
  }),
  output: z.object({
    turn_id: z.string(),
    thread_id: z.string(),
    sequence: z.number(),
    intent: z.enum(ORDINARY_INTENTS as [string, ...string[]]),
    state: z.string(),
    next: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ user, assistant, intent }, { host }) {
    // The schema admits only ordinary intents; beginTurn checks again (MemoryIntentError).
    const chosen = (intent ?? 'general_chat') as OrdinaryIntent;
    const memory = await host.current();
    // Admission and completion back to back: the turn is bound to the thread active now (M-3.3).
    const handle = memory.beginTurn({ intent: chosen, userText: user });
    const turn = memory.completeTurn(handle, assistant);
    return {
      turn_id: turn.id,
      thread_id: turn.threadId,
      sequence: turn.sequence,
      intent: turn.intent,
      state: turn.state,
      next: host.modelConfigured
        ? 'Queued for extraction; the background worker derives memories from it shortly (see memory_status).'
        : 'Queued. No model is configured for this server (AUTOPATCH_LLM_API_KEY / AUTOPATCH_LLM_BASE_URL), ' +
          'so extraction waits for an autopatch-j process that has one.',
    };
  },
});
