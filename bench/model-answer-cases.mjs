// Runs the model-answer cases (test/fixtures/model-answers.json) through the public API: each case records its
// turns, answers the Memory workers' calls from the fixture and runs one forced processDue per round. Used by
// the test suite (through the real provider and a fake server) and by `npm run eval:quality` (per class).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODEL_ANSWER_CASES = fileURLToPath(new URL('../test/fixtures/model-answers.json', import.meta.url));

export function loadModelAnswerCases(path = MODEL_ANSWER_CASES) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function substitute(text, names) {
  return text.replace(/\{\{([TSCI]\d+)\}\}/gu, (whole, name) => names[name] ?? whole);
}

function reasons(status) {
  return Object.entries(status.filteredCandidates.byReason).flatMap(([reason, n]) => Array.from({ length: n }, () => reason));
}

function subtract(after, before) {
  const rest = [...before];
  return after
    .filter((r) => {
      const at = rest.indexOf(r);
      if (at < 0) return true;
      rest.splice(at, 1);
      return false;
    })
    .sort();
}

const stateOf = (outcome) => (outcome === 'retry' || outcome === 'fenced' ? 'retry' : outcome);

/**
 * One round: admit its turns, then one forced processDue in which `respond(purpose, request)` answers from the
 * round's scripted answers. `setResponder(fn)` installs the answering function in whatever model the caller uses.
 */
async function runRound(memory, round, setResponder) {
  const names = {};
  const turns = round.turns.map((t, i) => {
    const handle = memory.beginTurn({ intent: 'general_chat', userText: t.user });
    memory.completeTurn(handle, t.assistant);
    names[`T${i + 1}`] = handle.turnId;
    names[`S${i + 1}`] = String(handle.sequence);
    return handle;
  });
  memory
    .list()
    .map((item) => ({ id: item.id, created: memory.show(item.id).revisions[0]?.createdAt ?? 0 }))
    .sort((a, b) => a.created - b.created)
    .forEach((item, i) => (names[`I${i + 1}`] = item.id));
  const answers = { memory_extraction: list(round.extraction), memory_consolidation: list(round.consolidation) };
  setResponder((purpose, payload) => {
    if (purpose === 'memory_consolidation') (payload.candidates ?? []).forEach((c, i) => (names[`C${i + 1}`] = c.candidate_id));
    const next = answers[purpose]?.shift();
    return next ? { content: substitute(next.content, names), finishReason: next.finish_reason } : null;
  });
  const before = reasons(memory.status());
  const result = await memory.processDue({ force: true });
  // The state of each job is that of the last outcome naming it (a split batch runs again in the same pass).
  const last = new Map();
  for (const outcome of result.outcomes) for (const id of outcome.jobIds) last.set(id, outcome);
  const states = (kind) => [...last.values()].filter((o) => o.kind === kind).map((o) => stateOf(o.outcome));
  return {
    turns,
    extraction: states('extraction'),
    consolidation: states('consolidation'),
    refusals: subtract(reasons(memory.status()), before),
  };
}

/** Runs a case on an open manager; returns what happened in its last round and the active memories after it. */
export async function runModelAnswerCase(memory, c, setResponder, advance = () => {}) {
  for (const round of c.setup ?? []) {
    await runRound(memory, round, setResponder);
    advance(1_000);
  }
  const outcome = await runRound(memory, c, setResponder);
  const active = memory.list().map((item) => {
    const detail = memory.show(item.id);
    return { id: item.id, kind: item.kind, title: item.title, quotes: detail.sources.map((s) => s.quote) };
  });
  return { ...outcome, active };
}

/** What a case's result gets wrong against its expectations ([] when it is right). */
export function judgeModelAnswerCase(c, result) {
  const failures = [];
  const e = c.expect;
  const extraction = result.extraction.length === 0 ? ['(not run)'] : [...new Set(result.extraction)];
  if (extraction.length !== 1 || extraction[0] !== e.extraction_job)
    failures.push(`extraction job ${extraction.join('/')}, expected ${e.extraction_job}`);
  if (e.consolidation_job && (result.consolidation.length !== 1 || result.consolidation[0] !== e.consolidation_job)) {
    failures.push(`consolidation job ${result.consolidation.join('/') || '(not run)'}, expected ${e.consolidation_job}`);
  }
  const wanted = [...e.refusals].sort();
  if (JSON.stringify(result.refusals) !== JSON.stringify(wanted))
    failures.push(`refusals [${result.refusals.join(', ')}], expected [${wanted.join(', ')}]`);
  const unmatched = [...result.active];
  for (const memory of e.active) {
    const at = unmatched.findIndex((a) => a.kind === memory.kind && a.quotes.includes(memory.quote));
    if (at < 0) failures.push(`missing ${memory.kind} quoting "${memory.quote}"`);
    else unmatched.splice(at, 1);
  }
  for (const extra of unmatched) failures.push(`illegal memory: ${extra.kind} "${extra.title}"`);
  return failures;
}
