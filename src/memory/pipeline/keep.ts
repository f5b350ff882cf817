import { MemoryNotFoundError, MemoryProvenanceError } from '../../shared/errors.js';
import type { Connection } from '../db/connection.js';
import { keepAnswer } from '../remember-command.js';
import { touchesSuppressedEvidence } from '../store/candidates.js';
import { type HeldEntry, findHeldEntry, recordKeep, resolveHeldId } from '../store/held.js';
import { type TurnOutcome, candidateOutcome, outcomeFields } from '../store/turn-outcome.js';
import { turnsByIds } from '../store/turns.js';
import type { KeepResult, ValidCandidate } from '../types.js';
import { type UserActDeps, runActNow } from './user-act.js';
import { type RejectReason, validateCandidate } from './validation.js';

/** A provenance failure: the reason `keep` can never overrule. */
export interface ProvenanceFailure {
  reason: RejectReason | 'other_thread';
  detail: string;
}

/**
 * M-5.7: `keep` verifies a held candidate's quotes against the RAW turns again and overrules only the reading:
 * every quote must still be the exact RAW span of its turn and role at its offset, in the candidate's
 * thread; at least one is the user's, the user's words come from one turn, an assistant quote backs only a
 * decision as the proposal of the turn right before; and no quote is the evidence of a forgotten memory. Then
 * the gate judges it again on those turns (validation.ts, the one gate of extraction): any refusal it cannot
 * overrule — provenance, a title with control characters, content the quotes do not hold — fails the keep;
 * its reading of the words (suggest, or a keepable refusal) is what the user overrules.
 */
export function verifyHeld(
  conn: Connection,
  entry: HeldEntry,
): { ok: true; candidate: ValidCandidate } | ({ ok: false } & ProvenanceFailure) {
  const body = entry.body!;
  const fail = (reason: ProvenanceFailure['reason'], detail: string): { ok: false } & ProvenanceFailure => ({ ok: false, reason, detail });
  const turns = new Map(turnsByIds(conn, [...new Set(body.sources.map((s) => s.turnId))]).map((t) => [t.id, t]));
  for (const source of body.sources) {
    const turn = turns.get(source.turnId);
    if (!turn) return fail('quote_not_found', `turn ${source.turnId} is not in the conversation`);
    if (turn.threadId !== entry.threadId) return fail('other_thread', `turn ${turn.id} belongs to another thread`);
    const text = source.role === 'user' ? turn.userText : turn.assistantText;
    const quote = Array.from(source.quote);
    const span =
      text === null
        ? ''
        : Array.from(text)
            .slice(source.start, source.start + quote.length)
            .join('');
    if (quote.length === 0 || span !== source.quote) {
      const other = source.role === 'user' ? turn.assistantText : turn.userText;
      if (other?.includes(source.quote)) return fail('wrong_role', `the quote is not the ${source.role}'s words in turn ${turn.id}`);
      return fail('quote_not_found', `the quote is not verbatim in the ${source.role} text of turn ${turn.id}`);
    }
  }
  const user = body.sources.filter((s) => s.role === 'user');
  if (user.length === 0) return fail('assistant_only', 'no quote of the user supports it');
  if (new Set(user.map((s) => s.turnId)).size > 1) return fail('stitched', 'the quotes of the user come from different turns');
  const userTurn = turns.get(user[0]!.turnId)!;
  for (const source of body.sources.filter((s) => s.role === 'assistant')) {
    const turn = turns.get(source.turnId)!;
    if (body.kind !== 'project_decision' || turn.sequence !== userTurn.sequence - 1) {
      return fail('assistant_source', 'an assistant quote backs only the proposal of the turn right before a confirmation');
    }
  }
  if (touchesSuppressedEvidence(conn, body.sources)) return fail('suppressed_evidence', 'it rests on the words of a forgotten memory');
  const title = body.title.trim();
  const gate = validateCandidate(
    {
      kind: body.kind,
      title,
      content: body.content.trim() || title,
      aliases: body.aliases,
      sources: body.sources.map((s) => ({ turn_id: s.turnId, role: s.role, quote: s.quote })),
    },
    { threadId: entry.threadId, turns, adjacent: null },
  );
  if (gate.verdict === 'refuse' && !gate.keepable) return fail(gate.reason, gate.detail);
  return {
    ok: true,
    candidate: {
      kind: body.kind,
      title: gate.candidate?.title ?? title,
      content: body.content.trim() || title,
      aliases: gate.candidate?.aliases ?? body.aliases,
      nonFactual: body.kind === 'discussion_context',
      threadId: entry.threadId,
      // The exact spans verified above, at their stored offsets.
      sources: body.sources,
    },
  };
}

/**
 * M-5.7 `keep`: makes a suggestion, or a refusal of the reading, a memory. Its quotes are verified against
 * the RAW turns again; the user's act is recorded as an ordinary turn (`typed`, else `/memory keep ID`)
 * whose extraction carries the candidate with its original quotes, and its consolidation runs at once
 * (M-6.x checks included). A provenance refusal throws MemoryProvenanceError and writes nothing; keeping
 * twice returns the first keep (`alreadyKept`). `candidateId` is the full id or its short name.
 */
export async function keepHeld(deps: UserActDeps, candidateId: string, options: { typed?: string } = {}): Promise<KeepResult> {
  const conn = deps.conn();
  deps.recoverIfDeferred();
  const id = conn.read(() => resolveHeldId(conn, candidateId));
  const entry = conn.read(() => findHeldEntry(conn, id));
  if (!entry || entry.state === 'dismissed')
    throw new MemoryNotFoundError(candidateId, `No suggestion or refusal '${candidateId}' to keep`);
  const kind = entry.body?.kind ?? 'user_preference';
  const result = (turnId: string | null, keptCandidate: string | null, alreadyKept: boolean): KeepResult => {
    const outcome: TurnOutcome =
      keptCandidate === null ? { state: 'refused', reason: 'unknown' } : conn.read(() => candidateOutcome(conn, keptCandidate));
    return { candidateId: id, turnId, kind, alreadyKept, ...outcomeFields(outcome, deps.worker !== null) };
  };
  if (entry.state === 'kept') return result(entry.keptTurnId, entry.keptCandidateId, true);
  if (!entry.keepable) {
    throw new MemoryProvenanceError(id, entry.reason, `${id} was refused for its provenance (${entry.reason}): it can never be kept`);
  }
  if (!entry.threadActive) throw new MemoryNotFoundError(candidateId, `${candidateId} belongs to a thread that was archived`);
  const checked = conn.read(() => verifyHeld(conn, entry));
  if (!checked.ok) {
    throw new MemoryProvenanceError(id, checked.reason, `${id} cannot be kept: ${checked.detail} (${checked.reason})`);
  }
  const recorded = recordKeep(conn, {
    entry,
    candidate: checked.candidate,
    typed: options.typed ?? `/memory keep ${candidateId.trim()}`,
    answer: keepAnswer(checked.candidate.kind),
    ids: { turn: deps.ids('turn'), keepJob: deps.ids('job'), candidate: deps.ids('candidate'), consolidationJob: deps.ids('job') },
    now: deps.now(),
  });
  if (recorded.already) return result(recorded.keptTurnId, recorded.keptCandidateId, true);
  await runActNow(deps, entry.threadId, [recorded.record.consolidationJobId]);
  return result(recorded.record.turnId, recorded.record.candidateId, false);
}
