import { describe, expect, it } from 'vitest';
import { ScriptedLlm } from '../../src/index.js';
import { shortCandidateId } from '../../src/shared/ids.js';
import { itemTableBytes } from '../helpers/held.js';
import { consolidateWith, extractWith } from '../helpers/scripted.js';
import { readRememberAct } from '../../src/memory/remember-command.js';
import type { ExtractionPayload } from '../../src/memory/pipeline/contracts.js';
import { type RecordedRequest, type Reply, fakeServerEachTest } from '../helpers/fake-openai.js';
import { byRole, createAll, payloadOf, runCli } from '../helpers/cli.js';
import { type Driven, type Step, drive, plain } from '../helpers/pty.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { openMemory } from '../helpers/memory.js';

const fake = fakeServerEachTest();

function candidate(kind: string, title: string, turnId: string, quote: string): object {
  return { kind, title, content: title, aliases: [], sources: [{ turn_id: turnId, role: 'user', quote }] };
}

/** A model's extraction: a remember gives its words; a "以后 / from now on" sentence gives a preference. */
function extraction(r: RecordedRequest): Reply {
  const payload = payloadOf<ExtractionPayload>(r);
  const candidates = payload.turns.flatMap((t) => {
    const act = readRememberAct(t.user);
    if (act) return [candidate(act.kind, act.text, t.turn_id, act.text)];
    const m = /^(以后|from now on,?)\s*(.+?)吧?$/iu.exec(t.user);
    if (m) return [candidate('user_preference', m[2]!, t.turn_id, t.user)];
    // A standing wish asked politely ("能不能以后…？"): the model proposes it; the gate decides.
    const asked = /^能不能以后都?\s*(.+?)[？?]$/u.exec(t.user);
    return asked ? [candidate('user_preference', asked[1]!, t.turn_id, t.user)] : [];
  });
  return { text: JSON.stringify({ thread_compaction: `summary of ${payload.turns.length} turn(s)`, candidates }) };
}

const ANSWERS: Record<string, string> = {
  review: 'Review comments are written in Chinese.',
  lint: 'Lint runs before each commit.',
};

/** The main model: "which review …" or "which lint …" searches Memory for that word, reads the first hit, then answers. */
function main(r: RecordedRequest): Reply {
  const messages = r.body.messages!;
  const question = String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  const topic = /^which (\w+)/u.exec(question)?.[1];
  if (topic === undefined || !(topic in ANSWERS)) return { text: 'OK.' };
  const tools = messages.filter((m) => m.role === 'tool');
  if (tools.length === 0) return { text: '', toolCalls: [{ name: 'memory_search', arguments: JSON.stringify({ query: topic }) }] };
  if (tools.length === 1) {
    const hits = JSON.parse(String(tools[0]!.content)) as { id: string }[];
    return { text: '', toolCalls: [{ name: 'memory_read', arguments: JSON.stringify({ memory_id: hits[0]!.id }) }] };
  }
  return { text: ANSWERS[topic]! };
}

function serve(): void {
  fake.server.always(byRole({ extraction, consolidation: createAll, main }));
}

const PROMPT = 'autopatch-j> ';

/** The active memories of a project, oldest first, read from its database file. */
function activeItems(repo: string): { id: string; title: string }[] {
  return withRawDb(dbPathOf(repo), (db) =>
    db.prepare("SELECT id, title FROM memory_items WHERE status = 'active' ORDER BY created_at").all(),
  ) as { id: string; title: string }[];
}

function session(steps: Step[], repo: string, env: Record<string, string> = {}): Promise<Driven> {
  return drive(steps, ['--repo', repo], { AUTOPATCH_LLM_BASE_URL: fake.server.url, AUTOPATCH_LLM_API_KEY: 'k', NO_COLOR: '1', ...env });
}

describe('M-11.2 notices, M-5.7 /remember and /why in a session on a terminal', () => {
  it('a stated preference shows its remembered line before the next prompt; /remember and /why work', async () => {
    serve();
    const repo = tempRepo();
    const result = await session(
      [
        { wait: PROMPT },
        { send: '以后 review 意见都用中文写吧\r' },
        { wait: 'OK.' },
        { wait: PROMPT },
        // A second turn: two pending turns make the background extraction run at once (M-5.1).
        { send: 'thanks, one more thing\r' },
        { wait: 'OK.' },
        { wait: 'remembered preference' },
        { wait: PROMPT },
        { send: '/remember 提交信息用英文写\r' },
        { wait: 'Asked Memory to remember this as a preference.' },
        { wait: 'remembered preference' },
        { wait: PROMPT },
        { send: 'which review language?\r' },
        { wait: 'Review comments are written in Chinese.' },
        { wait: PROMPT },
        { send: '/why\r' },
        { wait: 'It read 1 memory' },
        { wait: PROMPT },
        { send: '\u0004' },
      ],
      repo,
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    const screen = plain(result.transcript);
    const items = activeItems(repo);
    expect(items.map((i) => i.title)).toEqual(['review 意见都用中文写', '提交信息用英文写']);
    const [review, commit] = items;
    const stated =
      `remembered preference ${review!.id} "review 意见都用中文写" — from "以后 review 意见都用中文写吧" · ` +
      `/memory forget ${review!.id}`;
    // The notice comes after the answer to the second turn and before a prompt.
    const at = screen.indexOf(stated);
    expect(at, screen).toBeGreaterThan(screen.indexOf('thanks, one more thing'));
    expect(screen.indexOf(PROMPT, at)).toBeGreaterThan(at);
    expect(screen.split(stated).length - 1, 'each change is told once').toBe(1);
    expect(screen).toContain(`remembered preference ${commit!.id} "提交信息用英文写" — from "提交信息用英文写"`);
    const turns = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text, assistant_text FROM turns ORDER BY sequence').all());
    expect(turns).toContainEqual({
      user_text: '/remember 提交信息用英文写',
      assistant_text: 'Asked Memory to remember this as a preference.',
    });
    // /why: the memories the last answer was given, its search with the hit, and the memory it read, with quotes.
    const why = screen.slice(screen.lastIndexOf('/why'));
    expect(why).toContain('The last answer was given 2 memories in its context:');
    expect(why).toContain(`${review!.id}  preference  "review 意见都用中文写" — from "以后 review 意见都用中文写吧"`);
    expect(why).toContain(`${commit!.id}  preference  "提交信息用英文写"`);
    expect(why).toContain('"review" → 1 hit');
    expect(why.slice(why.indexOf('It read 1 memory'))).toContain(review!.id);
  });

  it('a polite question is suggested before the next prompt; /memory suggestions, keep and dismiss decide on it', async () => {
    serve();
    const repo = tempRepo();
    const LINT = '能不能以后都先跑 lint 再提交？';
    const REVIEW = '能不能以后 review 意见都用中文写？';
    const result = await session(
      [
        { wait: PROMPT },
        { send: `${LINT}\r` },
        { wait: PROMPT },
        { send: 'thanks, one more thing\r' },
        { wait: 'OK.' },
        { wait: 'suggestion s' },
        { wait: PROMPT },
        { send: '/memory suggestions\r' },
        { wait: '1 suggestion.' },
        { wait: PROMPT },
        // Tab completes the short name of the one held candidate.
        { send: '/memory keep \t' },
        { sleep: 0.3 },
        { send: '\r' },
        { wait: 'Asked Memory to keep this as a preference.' },
        { wait: 'remembered preference' },
        { wait: PROMPT },
        { send: '/memory list\r' },
        { wait: '1 memory.' },
        { wait: PROMPT },
        { send: '/memory show \t' },
        { sleep: 0.3 },
        { send: '\r' },
        { wait: 'sources (' },
        { wait: PROMPT },
        { send: 'which lint rule do we follow?\r' },
        { wait: 'Lint runs before each commit.' },
        { wait: PROMPT },
        { send: '/why\r' },
        { wait: 'It read 1 memory' },
        { wait: PROMPT },
        { send: `${REVIEW}\r` },
        { wait: PROMPT },
        { send: 'thanks again\r' },
        { wait: 'OK.' },
        { wait: 'suggestion s' },
        { wait: PROMPT },
        { send: '/memory dismiss \t' },
        { sleep: 0.3 },
        { send: '\r' },
        { wait: 'Dismissed' },
        { wait: PROMPT },
        { send: '/memory suggestions\r' },
        { wait: 'No suggestions.' },
        { wait: PROMPT },
        { send: '\u0004' },
      ],
      repo,
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(result.code).toBe(0);
    const screen = plain(result.transcript);
    const items = activeItems(repo);
    expect(
      items.map((i) => i.title),
      'the kept one only: the dismissed one is no memory',
    ).toEqual(['先跑 lint 再提交']);
    const lint = items[0]!.id;
    const decided = withRawDb(dbPathOf(repo), (db) =>
      db
        .prepare(
          `SELECT j.id || '#s' || (CAST(s.key AS INTEGER) + 1) AS id, json_extract(s.value, '$.state') AS state,
                  json_extract(s.value, '$.reason') AS reason
             FROM memory_jobs j, json_each(j.diagnostics, '$.suggestions') s WHERE j.kind = 'extraction' ORDER BY j.rowid`,
        )
        .all(),
    ) as { id: string; state: string; reason: string }[];
    expect(decided.map((d) => [d.state, d.reason])).toEqual([
      ['kept', 'polite_request'],
      ['dismissed', 'polite_request'],
    ]);
    const [kept, dropped] = decided.map((d) => shortCandidateId(d.id));
    // The notice of each suggestion, before the prompt that follows it.
    const notice = `suggestion ${kept} "先跑 lint 再提交" — from "${LINT}" · /memory keep ${kept} · /memory dismiss ${kept}`;
    const at = screen.indexOf(notice);
    expect(at, screen).toBeGreaterThan(screen.indexOf('thanks, one more thing'));
    expect(screen.indexOf(PROMPT, at)).toBeGreaterThan(at);
    expect(screen).toContain(`suggestion ${dropped} "review 意见都用中文写" — from "${REVIEW}" · /memory keep ${dropped}`);
    // /memory suggestions: short name, kind, title, quote, reason and the commands.
    const listed = screen.slice(screen.indexOf('/memory suggestions'), screen.indexOf('1 suggestion.'));
    expect(listed).toContain(`  ${kept}  preference  "先跑 lint 再提交" — from "${LINT}"`);
    expect(listed).toContain('held because: polite_request (a standing wish asked as a question)');
    expect(listed).toContain(`    /memory keep ${kept} · /memory dismiss ${kept}`);
    // keep: recorded as the user's turn, told as a new memory, listed, quoted in show, found by the agent's search.
    expect(screen).toContain(`remembered preference ${lint} "先跑 lint 再提交" — from "${LINT}" · /memory forget ${lint}`);
    const turns = withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT user_text FROM turns ORDER BY sequence').pluck().all());
    expect(turns).toContain(`/memory keep ${kept}`);
    expect(screen.slice(screen.indexOf('/memory list'))).toMatch(new RegExp(`${lint}\\s+preference\\s+先跑 lint 再提交`, 'u'));
    const show = screen.slice(screen.indexOf(`/memory show ${lint}`));
    expect(show).toContain(`title      先跑 lint 再提交`);
    expect(show).toContain(`“${LINT}”`);
    const why = screen.slice(screen.lastIndexOf('/why'));
    expect(why).toContain('"lint" → 1 hit');
    expect(why.slice(why.indexOf('It read 1 memory'))).toContain(lint);
    expect(screen).toContain(`Dismissed ${dropped}: it is no longer suggested.`);
  });

  it('AUTOPATCH_MEMORY_NOTICES=off silences them; the memory is still made', async () => {
    serve();
    const repo = tempRepo();
    const result = await session(
      [
        { wait: PROMPT },
        { send: '以后 review 意见都用中文写吧\r' },
        { wait: PROMPT },
        { send: 'thanks, one more thing\r' },
        { wait: PROMPT },
        { sleep: 2.5 },
        { send: '/memory list\r' },
        { wait: '1 memory.' },
        { wait: PROMPT },
        { send: '\u0004' },
      ],
      repo,
      { AUTOPATCH_MEMORY_NOTICES: 'off' },
    );
    expect(result.failed_wait, result.transcript).toBeNull();
    expect(plain(result.transcript)).toContain('review 意见都用中文写');
    expect(plain(result.transcript)).not.toContain('remembered preference');
  });
});

describe('ask: notices on stderr, memoryChanges and memoriesUsed in --json', () => {
  const env = (): Record<string, string> => ({ AUTOPATCH_LLM_BASE_URL: fake.server.url, AUTOPATCH_LLM_API_KEY: 'k' });

  it('prints what the exit pass remembered on stderr, after the pass line; off silences it', async () => {
    serve();
    const repo = tempRepo();
    const run = await runCli(['ask', '--repo', repo, '以后 review 意见都用中文写吧'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-2)).toMatch(/^memory: 2 jobs processed/u);
    expect(lines.at(-1)).toMatch(
      /^remembered preference m[0-9a-z]{8} "review 意见都用中文写" — from "以后 review 意见都用中文写吧" · autopatch-j memory forget m[0-9a-z]{8}$/u,
    );
    const quiet = await runCli(['ask', '--repo', tempRepo(), 'From now on, answers are short'], {
      env: { ...env(), AUTOPATCH_MEMORY_NOTICES: 'off' },
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('remembered');
  });

  it('--json carries memoryChanges and memoriesUsed { routing, searched, read }', async () => {
    serve();
    const repo = tempRepo();
    const first = await runCli(['ask', '--repo', repo, '--json', '以后 review 意见都用中文写吧'], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout) as { memoryChanges: { action: string; id: string; at: string; quote: string }[] };
    expect(created.memoryChanges).toHaveLength(1);
    expect(created.memoryChanges[0]).toMatchObject({ action: 'created', kind: 'user_preference', quote: '以后 review 意见都用中文写吧' });
    expect(created.memoryChanges[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T/u);
    const id = created.memoryChanges[0]!.id;
    expect(first.stderr).not.toContain('remembered');

    const second = await runCli(['ask', '--repo', repo, '--json', 'which review language?'], { env: env() });
    expect(second.code, second.stderr).toBe(0);
    const answer = JSON.parse(second.stdout) as { answer: string; memoryChanges: unknown[]; memoriesUsed: unknown };
    expect(answer.answer).toBe('Review comments are written in Chinese.');
    expect(answer.memoryChanges).toEqual([]);
    expect(answer.memoriesUsed).toEqual({
      routing: [{ id, kind: 'user_preference', title: 'review 意见都用中文写' }],
      searched: [{ query: 'review', hits: [{ id, kind: 'user_preference', title: 'review 意见都用中文写', match: 'prefix' }] }],
      read: [{ id, kind: 'user_preference', title: 'review 意见都用中文写' }],
    });
  });

  it('memory remember: a usage error for an empty text, a preference otherwise, queued without a model', async () => {
    serve();
    const repo = tempRepo();
    const empty = await runCli(['memory', 'remember', '--repo', repo, '   '], { env: env() });
    expect(empty.code).toBe(2);
    const done = await runCli(['memory', 'remember', '--repo', repo, '--json', 'review', '意见用中文写'], { env: env() });
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      outcome: 'remembered',
      memory: { kind: 'user_preference', title: 'review 意见用中文写' },
    });
    const offline = await runCli(['memory', 'remember', '--repo', tempRepo(), '--decision', 'CI 用 pnpm'], { env: {} });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('Asked Memory to remember this as a project decision.');
    expect(offline.stdout).toContain('it waits in the queue (no model is configured)');
  });
});

describe('memory keep / dismiss from the shell (M-5.7)', () => {
  const env = (): Record<string, string> => ({ AUTOPATCH_LLM_BASE_URL: fake.server.url, AUTOPATCH_LLM_API_KEY: 'k' });
  const QUESTION = '能不能以后都先跑 lint 再提交？';

  /**
   * One turn whose extraction proposes a preference quoting `quote`: the gate holds it as a suggestion (a
   * request in question form) or refuses it (a quote the turn does not hold).
   */
  async function heldTurn(repo: string, quote: string): Promise<{ turnId: string; heldId: string }> {
    const llm = new ScriptedLlm()
      .always(
        'memory_extraction',
        extractWith((t) => [
          {
            kind: 'user_preference',
            title: '先跑 lint 再提交',
            content: '提交前先跑 lint',
            aliases: [],
            sources: [{ turn_id: t.turn_id, role: 'user', quote }],
          },
        ]),
      )
      .always('memory_consolidation', consolidateWith());
    const memory = openMemory({ repoRoot: repo, llm });
    const turn = memory.completeTurn(memory.beginTurn({ intent: 'general_chat', userText: QUESTION }), 'OK');
    await memory.processDue({ force: true });
    const held = [...memory.suggestions(), ...memory.refused()];
    expect(held).toHaveLength(1);
    await memory.close();
    return { turnId: turn.id, heldId: held[0]!.candidateId };
  }

  it('keep makes a suggestion a memory (exit 0); keep again changes nothing; dismiss drops another', async () => {
    serve();
    const repo = tempRepo();
    const { heldId: id } = await heldTurn(repo, QUESTION);
    expect(id).toMatch(/#s1$/u);
    const kept = await runCli(['memory', 'keep', '--repo', repo, shortCandidateId(id)], { env: env() });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain('Asked Memory to keep this as a preference.');
    expect(kept.stdout).toMatch(/remembered preference m[0-9a-z]{8} "先跑 lint 再提交" — from "能不能以后都先跑 lint 再提交？"/u);
    const bytes = itemTableBytes(repo);
    const again = await runCli(['memory', 'keep', '--repo', repo, '--json', id], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadyKept: true, outcome: 'remembered' });
    expect(itemTableBytes(repo)).toBe(bytes);
    const list = await runCli(['memory', 'list', '--repo', repo, '--json']);
    expect((JSON.parse(list.stdout) as { title: string }[]).map((i) => i.title)).toEqual(['先跑 lint 再提交']);

    const other = tempRepo();
    const { heldId: held } = await heldTurn(other, QUESTION);
    const listed = await runCli(['memory', 'suggestions', '--repo', other, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const suggestions = JSON.parse(listed.stdout) as Record<string, unknown>[];
    expect(suggestions).toHaveLength(1);
    expect(Object.keys(suggestions[0]!).sort()).toEqual(['at', 'candidateId', 'content', 'kind', 'quote', 'reason', 'title', 'turnId']);
    expect(suggestions[0]).toMatchObject({
      candidateId: held,
      kind: 'user_preference',
      title: '先跑 lint 再提交',
      content: '提交前先跑 lint',
      quote: QUESTION,
      reason: 'polite_request',
    });
    expect(suggestions[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u);
    const text = await runCli(['memory', 'suggestions', '--repo', other]);
    expect(text.code, text.stderr).toBe(0);
    const short = shortCandidateId(held);
    expect(text.stdout).toContain(`  ${short}  preference  "先跑 lint 再提交" — from "${QUESTION}"`);
    expect(text.stdout).toContain('    would remember "提交前先跑 lint"');
    expect(text.stdout).toContain(`, id ${held})`);
    expect(text.stdout).toContain(`    autopatch-j memory keep ${short} · autopatch-j memory dismiss ${short}`);
    const dismissed = await runCli(['memory', 'dismiss', '--repo', other, held], { env: env() });
    expect(dismissed.code, dismissed.stderr).toBe(0);
    const late = await runCli(['memory', 'keep', '--repo', other, held], { env: env() });
    expect(late.code).toBe(1);
    const none = await runCli(['memory', 'suggestions', '--repo', other]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/^No suggestions\./u);
    expect(JSON.parse((await runCli(['memory', 'suggestions', '--repo', other, '--json'])).stdout)).toEqual([]);
  });

  it('keep on a provenance refusal fails with exit 1 and leaves the items tables byte for byte', async () => {
    serve();
    const repo = tempRepo();
    const { heldId: refusalId } = await heldTurn(repo, '以后提交前都跑 lint');
    const bytes = itemTableBytes(repo);
    const run = await runCli(['memory', 'keep', '--repo', repo, refusalId], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('can never be kept');
    expect(run.stderr).toContain('quote_not_found');
    expect(itemTableBytes(repo)).toBe(bytes);
    expect(withRawDb(dbPathOf(repo), (db) => db.prepare('SELECT count(*) FROM turns').pluck().get())).toBe(1);
    // memory refused says it can never be kept, and offers no keep command for it.
    const refused = await runCli(['memory', 'refused', '--repo', repo]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain(`  ${shortCandidateId(refusalId)}  `);
    expect(refused.stdout).toContain('cannot be kept');
    expect(refused.stdout).not.toContain('memory keep');
    expect(JSON.parse((await runCli(['memory', 'refused', '--repo', repo, '--json'])).stdout)).toMatchObject([
      { candidateId: refusalId, reason: 'quote_not_found', keepable: false },
    ]);
  });
});
