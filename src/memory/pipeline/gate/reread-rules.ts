import type { GateRule } from './rules.js';

const p = 'user_preference' as const;
const d = 'project_decision' as const;

/** The rules of the second reading (reread.ts), each with its own examples; GATE_RULES holds them with the rest. */
export const REREAD_RULES: readonly GateRule[] = [
  {
    name: 'status-then-now-task',
    reads: 'a report of the current state, then a short imperative with no standing scope: a task for now',
    reason: 'temporary',
    verdict: 'refuse',
    kind: p,
    fires: ['所有测试都过了，合并吧。', '测试都跑通了，提交吧。', 'Build is green, tag the release.', 'CI 绿了，直接发版吧。'],
    stands: ['测试都过了，以后合并前都先跑一遍测试。', 'CI is green now; from now on, never merge while it is red.'],
  },
  {
    name: 'status-then-now-task-decision',
    reads: 'the same shape read as a project decision: releasing now after a report is no ruling of the project',
    reason: 'temporary',
    verdict: 'refuse',
    kind: d,
    fires: ['构建好了，那就发布吧。'],
    stands: ['代码合了，以后发版统一走 release 分支。'],
  },
  {
    name: 'frame-after-rule',
    reads: 'a reporting frame closing the sentence or following it that names another party: their rule, not the user’s',
    reason: 'third_party',
    verdict: 'refuse',
    kind: p,
    fires: [
      'Always squash before merging, said my old team lead. Not sure about here.',
      '提交前必须 rebase，这是我们组长说的。',
      'Never push to main directly, says our CTO.',
      '每次改接口都要更新 README，老板说的。',
    ],
    stands: ['以后 commit message 用英文，这是我们定的。', '以后提交前都跑 lint，我说的。'],
  },
  {
    name: 'frame-after-rule-adopted',
    reads: 'a rule framed as another party’s that the user takes on for this project: held for the user',
    reason: 'third_party',
    verdict: 'suggest',
    kind: p,
    fires: ['Always squash before merging, said my old team lead. We do the same here.', '每次发版前都打 tag，这是组长说的，我们也这样。'],
  },
  {
    name: 'labelled-setting',
    reads: 'a ruling label (结论是, 定了：, Decision:) whose body is a setting and its value, with no verb',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: [
      '结论是 targetSdk 34。',
      '定了：JDK 版本 21。',
      'Decision: Node 20 LTS',
      'Final call: Postgres 16.',
      '决定：Python 版本 3.12。',
    ],
  },
  {
    name: 'labelled-pending',
    reads: 'a ruling label said to be still open, or a guessed body: no ruling yet',
    reason: 'undecided',
    verdict: 'refuse',
    kind: d,
    fires: ['Decision pending: maybe Node 22.', '结论待定：JDK 17。'],
  },
  {
    name: 'present-convention',
    reads: 'this repo or we, a present-tense verb of practice, and a scope (here, only, not X): the user’s ruling',
    reason: 'accept',
    verdict: 'accept',
    kind: d,
    fires: [
      'This repo uses squash merges only.',
      'We use pnpm here, not npm.',
      'In this repo we use rebase merges, not merge commits.',
      '这个仓库只用 pnpm，不用 npm。',
    ],
  },
  {
    name: 'only-when-rule',
    reads: 'a restricting imperative (only …) under a recurring occasion (when you …): a standing wish',
    reason: 'accept',
    verdict: 'accept',
    kind: p,
    fires: ['Only pull the changed files when you review.'],
  },
  {
    name: 'past-convention',
    reads: 'how this repo or we worked before (之前, used to, until last year): a description of the past',
    reason: 'description',
    verdict: 'refuse',
    kind: d,
    fires: ['我们之前只用 npm，不用 yarn。'],
  },
  {
    name: 'proposal-question',
    reads: 'a proposal opener (how about, what if we, 要不要, …怎么样？) of a question whose content is a rule: held for the user',
    reason: 'question',
    verdict: 'suggest',
    kind: d,
    fires: [
      'How about a convention: every migration gets a down script?',
      '要不要定个规矩：每个 migration 都配一个回滚脚本？',
      'What if we make it a rule that every PR gets a changelog entry?',
      '以后所有接口都加版本号，怎么样？',
    ],
  },
];
