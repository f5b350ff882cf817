import type { GateReason, StatementKind, Verdict } from './verdict.js';

/**
 * Every rule of the gate (M-5.6, M-5.7) as a named entry: what it reads, the reason and verdict it gives, and
 * sentences it must decide — `fires` are judged with that reason, `stands` are accepted. One loop test
 * (test/memory/pipeline/gate-rules.test.ts) runs every example; a new rule comes with its examples here.
 */
export interface GateRule {
  name: string;
  /** What the rule reads, in one sentence. */
  reads: string;
  reason: GateReason | 'accept';
  verdict: Verdict | 'accept';
  kind: StatementKind;
  /** Sentences the rule decides with its reason and verdict. */
  fires: readonly string[];
  /** Near sentences it must leave standing (accepted). */
  stands?: readonly string[];
  /** The quoted part of each example, when it is not the whole text. */
  quote?: string;
  /** The user's next turn, for a rule that reads it. */
  next?: string;
}

const p = 'user_preference' as const;
const d = 'project_decision' as const;

export const GATE_RULES: readonly GateRule[] = [
  // What stands: acts by marker, pattern, label, structure.
  {
    name: 'standing-marker',
    reads: 'a marker of a standing wish (以后, by default, from now on)',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['以后解释接口的时候先给请求示例。', 'From now on, show the command before its output.'],
  },
  {
    name: 'gap-pattern',
    reads: 'a standing pattern with a gap (每次…都, never … again)',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['每次改完配置都提醒我重启服务。', 'Never hard-code the region again.'],
  },
  {
    name: 'ruling-label',
    reads: 'a labelled ruling at the start of a sentence, before a colon or a dash',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: ['结论：缓存统一放在 Redis。', 'Final call — the API stays versioned by path.'],
  },
  {
    name: 'general-prohibition',
    reads: 'a prohibitive opening its clause, about no one thing in particular',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['别用单字母变量名。', 'Stop ending answers with a list of follow-up questions.'],
  },
  {
    name: 'conditioned-rule',
    reads: 'a condition clause, then an imperative clause',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['碰到要改数据库结构的情况，先问我。'],
  },
  {
    name: 'convention',
    reads: 'our choice scoped to this project, or against its alternative',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: ['这个仓库里我们用 Gradle 管理依赖。', 'We use Vitest in this repo, not Jest.'],
  },
  {
    name: 'explicit-remember',
    reads: 'a turn that is an explicit /remember',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['/remember 回答先给结论', '/remember Could you keep answers short?'],
    stands: ['/remember for now, keep answers short'],
  },
  {
    name: 'remember-who-speaks',
    reads: "an explicit /remember of words someone else said: the remember does not make them the user's",
    reason: 'third_party',
    verdict: 'refuse',
    kind: p,
    fires: ['/remember 同事说以后都用 tabs 缩进'],
  },
  {
    name: 'typo-marker',
    reads: 'a typo of a common marker (transposed, dropped or added letter; 後/候 for 后)',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['form now on, number the steps.', '以後回答用中文。'],
  },
  {
    name: 'clause-shape',
    reads: 'no marker: an imperative, prohibitive or deontic main predicate with a generic scope (shape.ts)',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: ['新写的模块都加类型注解。', 'Every new table needs a created_at column.'],
  },
  {
    name: 'clause-shape-unscoped',
    reads: 'no marker: an imperative with no scope at all — weak evidence',
    reason: 'weak_evidence',
    verdict: 'suggest',
    kind: p,
    fires: ['用 pnpm 装依赖。', 'Use tabs for indentation.'],
  },
  {
    name: 'own-verb-of-saying',
    reads: 'a verb of saying whose subject names no one (a time, the user, you): the user speaking',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['下班前说一句：以后提交信息都写英文。', '另外跟你讲下，以后报错先贴完整堆栈。'],
  },
  // What the words are, rather than an act.
  { name: 'no-act', reads: 'no act at all', reason: 'no_speech_act', verdict: 'refuse', kind: p, fires: ['这个接口挺慢的。'] },
  {
    name: 'marker-as-noun',
    reads: 'a marker word inside a noun (以后端, default branch)',
    reason: 'no_speech_act',
    verdict: 'refuse',
    kind: p,
    fires: ['以后端返回的时间为准。', 'The default branch is protected.'],
  },
  {
    name: 'marker-mentioned',
    reads: 'a marker mentioned as a word (from now on 这个词)',
    reason: 'no_speech_act',
    verdict: 'refuse',
    kind: p,
    fires: ['from now on 这个词在文案里翻译错了。'],
  },
  {
    name: 'temporary-only',
    reads: 'a request scoped to this answer or this time',
    reason: 'temporary',
    verdict: 'refuse',
    kind: p,
    fires: ['这次先用表格回答。', 'Just this time, skip the tests.'],
  },
  {
    name: 'negated-act',
    reads: 'a negation right before the act',
    reason: 'negated',
    verdict: 'refuse',
    kind: d,
    fires: ['我们没有决定用 Kafka。'],
  },
  {
    name: 'question',
    reads: 'a question (mark, particle, A-not-A, wh-word, auxiliary opening)',
    reason: 'question',
    verdict: 'refuse',
    kind: p,
    fires: ['以后是不是都要写单测？', 'Should we always squash merges?'],
  },
  {
    name: 'hypothetical',
    reads: 'a hypothetical or an act inside a condition',
    reason: 'hypothetical',
    verdict: 'refuse',
    kind: d,
    fires: ['假设我们以后统一用 Rust。'],
  },
  {
    name: 'undecided',
    reads: 'an undecided or postponed statement',
    reason: 'undecided',
    verdict: 'refuse',
    kind: d,
    fires: ['数据库用哪个还没决定，以后再说。'],
  },
  {
    name: 'speculation',
    reads: 'a guess or a prediction',
    reason: 'speculation',
    verdict: 'refuse',
    kind: d,
    fires: ['我猜以后会换成 Bun。'],
  },
  {
    name: 'scoped-rule',
    reads: 'a rule by structure with a time scope or hedge anywhere in its sentence',
    reason: 'temporary',
    verdict: 'refuse',
    kind: p,
    fires: ['今天先别写文档。'],
  },
  {
    name: 'retracted-next-turn',
    reads: 'the next turn holds the statement back (先别记, wait, no)',
    reason: 'retracted',
    verdict: 'refuse',
    kind: d,
    fires: ['以后接口都加限流。'],
    next: '先别记，我再想想。',
  },
  {
    name: 'held-anywhere-next-turn',
    reads: 'a hold anywhere in the next turn, after its reason (还没对过…先不定, undecided)',
    reason: 'retracted',
    verdict: 'refuse',
    kind: p,
    fires: ['以后提交前跑一遍格式化。'],
    next: '等等，这个我还没跟组里对过，先不定。',
  },
  {
    name: 'partly-taken-back',
    reads: 'the next turn takes back a part of it (那条去掉): what stands is for the user to say',
    reason: 'retracted',
    verdict: 'suggest',
    kind: p,
    fires: ['以后每个 PR 都附截图和测试说明。'],
    next: '截图那条去掉吧。',
  },
  {
    name: 'question-with-leaning',
    reads: 'a yes/no question the user answers with a leaning of their own',
    reason: 'question',
    verdict: 'suggest',
    kind: p,
    quote: '以后要不要都写 changelog',
    fires: ['以后要不要都写 changelog？我倾向于写。'],
  },
  // Who speaks and what kind of text.
  {
    name: 'third-party-decision',
    reads: 'another party decided it',
    reason: 'third_party',
    verdict: 'refuse',
    kind: d,
    fires: ['The data team decided to adopt Airflow.'],
  },
  {
    name: 'relayed-rule',
    reads: 'a standing rule reported from someone else',
    reason: 'third_party',
    verdict: 'suggest',
    kind: p,
    fires: ['组长说以后提交信息都写英文。'],
  },
  {
    name: 'adopted-rule',
    reads: 'a party’s rule this project takes on (我们也得跟)',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: ['平台组定了，以后镜像统一推到 Harbor，我们这个项目也得跟。'],
  },
  {
    name: 'other-project',
    reads: 'another or an earlier project',
    reason: 'other_project',
    verdict: 'refuse',
    kind: d,
    fires: ['在我之前那家公司，我们默认所有服务都上 Consul。'],
  },
  {
    name: 'pasted-material',
    reads: 'a quote in pasted code, logs, chat transcripts, documents or comments',
    reason: 'code_or_tool_output',
    verdict: 'refuse',
    kind: p,
    fires: ['群聊记录：\n张三：以后都用 tabs\n李四：收到'],
    quote: '以后都用 tabs',
  },
  {
    name: 'quoted-speech',
    reads: 'an act inside quotation marks',
    reason: 'quoted_speech',
    verdict: 'refuse',
    kind: p,
    fires: ['他写了“以后都用 tabs”这句话。'],
  },
  {
    name: 'description',
    reads: 'a description of behaviour with a marker word',
    reason: 'description',
    verdict: 'refuse',
    kind: p,
    fires: ['这个测试在 CI 上总是超时。'],
  },
  {
    name: 'one-off-task',
    reads: 'a task on one named thing of the code',
    reason: 'one_off_request',
    verdict: 'refuse',
    kind: d,
    fires: ['把 settings.yaml 里的超时改成 30 秒。'],
  },
  // Weak or conflicting evidence: held for the user.
  {
    name: 'polite-request',
    reads: 'a standing wish asked as a question',
    reason: 'polite_request',
    verdict: 'suggest',
    kind: p,
    fires: ['以后能不能都先给结论？', 'Could you always include the file path from now on?'],
  },
  {
    name: 'weakened',
    reads: 'a weakener (尽量, if possible) on a wish',
    reason: 'weakened',
    verdict: 'suggest',
    kind: p,
    fires: ['以后尽量少用缩写。', 'From now on, keep replies short where possible.'],
  },
  {
    name: 'sarcasm',
    reads: 'markers of sarcasm or resignation',
    reason: 'sarcasm',
    verdict: 'suggest',
    kind: p,
    fires: ['呵呵，以后都别写测试了。'],
  },
  {
    name: 'correction',
    reads: 'the user correcting what was said before',
    reason: 'correction',
    verdict: 'suggest',
    kind: p,
    fires: ['纠正一下，以后缩进用两个空格。'],
  },
  {
    name: 'request-frame-ruling',
    reads: 'a ruling in the frame of a request',
    reason: 'one_off_request',
    verdict: 'suggest',
    kind: d,
    fires: ['帮忙把旧的兼容层都删掉。', 'can you drop support for Node 16'],
  },
];
