/**
 * The words the gate reads (M-5.3, M-5.6), as data. The readers' patterns are built from these lists; some
 * readers (gate.ts, acts.ts, mood.ts) still spell particles and short function-word patterns inline, reread.ts
 * none.
 *
 * Entries are matched on NFKC + lower-cased text. An entry written with Chinese characters must start on a
 * word boundary (Intl.Segmenter, word granularity) and end on one, or be followed only by a particle; an
 * English entry matches whole words. "{gap}" in an entry is a gap of up to a few words inside one clause, so a
 * discontinuous pattern ("每次{gap}都", "never {gap} again") is data too.
 */

export interface Words {
  readonly zh: readonly string[];
  readonly en: readonly string[];
}

const w = (zh: readonly string[], en: readonly string[]): Words => ({ zh, en });

/** A standing wish or rule: "from now on / by default / every time {gap} / never {gap} again". */
export const STANDING = w(
  [
    '以后',
    '今后',
    '往后',
    '之后都',
    '以后都',
    '从现在开始',
    '从现在起',
    '从今以后',
    '从今往后',
    '从今天开始',
    '从今天起',
    '从下周开始',
    '从这个版本开始',
    '从此',
    '默认情况下',
    '默认的情况下',
    '从下{gap}开始',
    '从下{gap}起',
    '从本{gap}开始',
    '从本{gap}起',
    '从这{gap}开始',
    '从明天开始',
    '从明天起',
    '不管{span}都',
    '无论{span}都',
    '不论{span}都',
    '不管{span}也',
    '无论{span}也',
    '凡是{span}都',
    '所有{span}都',
    '只要{span}就',
    '一旦{span}就',
    '每次{span}都',
    '每回{span}都',
    '任何{span}都',
    '默认',
    '一律',
    '总是',
    '始终',
    '一直都',
    '永远',
    '每次{gap}都',
    '每回{gap}都',
    '每一次{gap}都',
    '每个{gap}都',
    '所有{gap}都',
    '任何{gap}都',
    '凡是{gap}都',
    '全部{gap}都',
    '无论{gap}都',
    '不管{gap}都',
    '不论{gap}都',
    '但凡{gap}都',
    '只要{gap}就',
    '一旦{gap}就',
    '统统',
    '请记住',
    '记住',
    '长期',
    '原则上',
    '一概',
    '无一例外',
    '千万别',
    '千万不要',
    '绝对不要',
    '绝不',
    '坚决不',
    '任何时候',
    '什么时候都',
    '任何时候都',
    '无论何时',
    '随时都',
    '谁都不',
    '谁也不',
    '别再',
    '不要再',
    '不许再',
    '不准再',
    '再也不要',
    '再也别',
    '后面{gap}都',
    '往后{gap}都',
    '今后{gap}都',
    '以后{gap}都',
    '今后都',
    '但凡{span}都',
  ],
  [
    'from now on',
    'going forward',
    'moving forward',
    'by default',
    'always',
    'never',
    'in future',
    'in the future',
    'from here on',
    'from here on out',
    'from this point on',
    'henceforth',
    'from today',
    'starting today',
    'starting now',
    'from today on',
    'every time',
    'each time',
    'whenever',
    'please remember',
    'remember that',
    'remember to',
    'as a rule',
    'default to',
    'never {gap} again',
    'no more',
    'stop using',
    'stop adding',
    'stop writing',
    'stop putting',
    "don't ever",
    'do not ever',
    'at all times',
    'for every',
    'all future',
    'any time you',
    'anytime you',
    'every single',
    'prefer {gap} over',
    'prefer {gap} to',
    'favor {gap} over',
    'favour {gap} over',
    'as a general rule',
    'without exception',
    'no matter what',
    'under no circumstances',
    'never ever',
    'starting next',
    'from the next',
    'make it a rule',
    'as a default',
    "don't {gap} again",
    'do not {gap} again',
    'no exceptions',
  ],
);

/** "I prefer / 我比较喜欢": a wish about how things are done for this user. */
export const PREFERENCE_VERBS = w(
  [
    '我喜欢',
    '我更喜欢',
    '我比较喜欢',
    '我偏好',
    '我倾向于',
    '我倾向',
    '我习惯',
    '我希望你',
    '我希望',
    '我要求',
    '我的偏好',
    '我更倾向',
    '我偏爱',
    '我宁愿',
    '我宁可',
    '我更想要',
    '我想要你',
    '我一般习惯',
    '我一般喜欢',
    '我平时习惯',
    '我通常习惯',
    '我比较习惯',
    '我个人偏好',
    '我个人喜欢',
    '我受不了',
    '我讨厌',
  ],
  [
    'i prefer',
    "i'd prefer",
    'i would prefer',
    'i like it when',
    'i like',
    'i want you to',
    'i want',
    'my preference',
    "i'd rather",
    'i would rather',
    'i much prefer',
    'i really prefer',
    'please always',
    "i'd like you to",
    'i would like you to',
    'i expect you to',
    'i need you to always',
    "i can't stand",
    'i hate it when',
  ],
);

/** "we decided / adopt / switch to {gap}": a project choice. */
export const DECISION = w(
  [
    '决定',
    '采用',
    '改为',
    '改用',
    '换成',
    '改成',
    '最终用',
    '最终选',
    '最终定',
    '就选',
    '那就定',
    '那就用',
    '那就选',
    '那就上',
    '选了',
    '定了',
    '定下来',
    '确定用',
    '确定使用',
    '确定采用',
    '统一使用',
    '统一用',
    '统一采用',
    '统一成',
    '统一为',
    '回到',
    '还是用',
    '退回到',
    '改回',
    '我们的约定是',
    '规矩是',
    '惯例是',
    '达成共识',
    '共识是',
    '不再讨论',
    '不讨论了',
    '别再讨论了',
    '就按{gap}来',
    '方案定为',
    '选型定了',
    '统一改成',
    '统一走',
    '就用',
    '选用',
    '选定',
    '敲定',
    '拍板',
    '决议',
    '约定',
    '迁到',
    '迁移到',
    '切到',
    '切换到',
    '迁移至',
    // A verb of moving with its direction and no goal: the move to a choice named before ("就迁过去").
    '迁过去',
    '迁移过去',
    '切过去',
    '切换过去',
    '换过去',
    '搬过去',
    '就定',
    '就这么定',
    '用{gap}吧',
    '上{gap}吧',
    '废弃',
    '弃用',
    '不再支持',
    '不再维护',
    '下线',
    '下掉',
    '就这么着',
    '那就这么着',
    '就这么办',
    '就这么干',
    '就这么搞',
    '就这样干',
    '那就{gap}吧',
    '不考虑了',
  ],
  [
    'we decided',
    "we've decided",
    'we have decided',
    'i decided',
    "i've decided",
    'decided to',
    'decided on',
    'decision is',
    'we will use',
    "we'll use",
    'we will adopt',
    "let's go with",
    "let's use",
    'go with',
    'adopt',
    'made the call',
    'my call is',
    "it's decided",
    'go back to',
    // A return to an earlier choice, said as under way ("we're going back to X"): the decision itself.
    "we're going back to",
    'we are going back to',
    "we're switching back to",
    'we are switching back to',
    "we're moving back to",
    'we are moving back to',
    "we're reverting to",
    'we are reverting to',
    'adopting',
    'switch to',
    'switching to',
    "we're switching",
    'we are switching',
    'standardize on',
    'standardise on',
    'the project will use',
    'this project will',
    'the project will',
    'this repo will',
    'the repo will',
    'our project will',
    'this codebase will',
    'this service will',
    'we are going with',
    "we're going with",
    'final decision',
    'settled on',
    'agreed to use',
    'we agreed',
    'we will standardize',
    "let's stick with",
    'stick with',
    "we're moving to",
    'we are moving to',
    'migrate to',
    "we'll migrate",
    'we will migrate',
    'going with',
    'switch {gap} to',
    'move {gap} to',
    'migrate {gap} to',
    'convert {gap} to',
    'moved {gap} to',
    'switched to',
    "let's do the {gap} thing",
    "let's do the {gap} approach",
    "let's do the {gap} option",
    "let's do the {gap} plan",
    "let's do the {gap} one",
    "let's go with the {gap} one",
    'migrated {gap} to',
    'we moved',
    'we switched',
    "we've switched",
    "we've moved",
    'we migrated',
    "we've migrated",
    "we're dropping",
    'we are dropping',
    "let's drop",
    "we'll drop",
    "let's move to",
    "we're going to use",
    'we are going to use',
    'is deprecated',
    'are deprecated',
    "let's standardize",
    'no longer support',
    'we no longer',
    "we're not {gap} anymore",
    'we are not {gap} anymore',
    "we're not {gap} any more",
    "we won't {gap} anymore",
    'will no longer',
    'our convention is',
    'the convention is',
    'our rule is',
    'the rule is',
    'our policy is',
    'the policy is',
    'house rule',
    'we standardized on',
    'we standardised on',
    "we've settled on",
    'we settled on',
    "we've standardized on",
    'we went with',
    "we've gone with",
    'standardizing on',
    'standardising on',
    "we're migrating to",
    'we are migrating to',
    "we're adopting",
    'we are adopting',
    "we're moving off",
    'we are moving off',
    'we reached consensus',
    'end of discussion',
    'case closed',
    'no more discussion',
    'the consensus is',
    'is our standard',
    'is the standard',
    'we will be using',
    "we'll be using",
    'the plan is to',
    "we've agreed",
    'we have agreed',
    'agreed to',
    "let's keep",
    "we'll keep",
    "let's stay on",
    'stay on',
    'stick to',
    "we're keeping",
    'we are keeping',
  ],
);

/** "Decision: {gap}", "结论：{gap}": a labelled ruling at the start of a sentence. */
export const RULING_LABELS = w(
  [
    '结论',
    '决定',
    '决议',
    '规定',
    '规则',
    '约定',
    '最终方案',
    '定论',
    '最终决定',
    '拍板',
    '已决定',
    '定了',
    '定个规矩',
    '规矩',
    '定个规则',
    '定一下',
    // "统一一下口径：…": agreeing on how it is said announces the ruling after the colon.
    '统一一下口径',
    '统一口径',
    '约定一下',
    '立个规矩',
  ],
  [
    'decision',
    'final call',
    'final decision',
    'rule',
    'ruling',
    'policy',
    'convention',
    'verdict',
    'resolution',
    'team decision',
    'adr',
    'decided',
    'agreed',
    'settled',
    'final answer',
    'rule of thumb',
    'house rule',
    'guideline',
    'team rule',
    'standard',
  ],
);

/**
 * A lead before a colon that revises an earlier choice ("Reversing what we picked last week:", "推翻上次定的："):
 * a verb of revising and a word naming the choice. What follows the colon is the new ruling.
 */
export const REVISION_LEADS = {
  verbs: w(
    ['推翻', '改一下', '修改', '调整', '变更', '撤销', '改掉', '更改', '纠正', '改了', '变了', '回滚'],
    [
      'reversing',
      'reverse',
      'revising',
      'revise',
      'changing',
      'change',
      'changed',
      'overturning',
      'overturn',
      'undoing',
      'undo',
      'amending',
      'amend',
      'reverting',
      'revert',
      'rolling back',
      'dropping',
    ],
  ),
  choices: w(
    ['定的', '选的', '决定', '方案', '约定', '结论', '选型', '方向', '路线'],
    ['picked', 'decided', 'chose', 'chosen', 'agreed', 'settled', 'decision', 'plan', 'choice', 'pick', 'call', 'direction', 'course'],
  ),
};

/**
 * Work asked for right after a ruling, in the same sentence ("… and fix whatever imports break", "…，然后把报错修好"):
 * the ruling is a step of a task to do now. A joint and a verb of repair or follow-up work.
 */
export const FOLLOW_UP_WORK = {
  joints: w(['然后', '再', '并且', '顺便'], ['and then', 'and', 'then']),
  verbs: w(['修', '修好', '修一下', '修复', '修掉', '跑一下', '重跑', '提交'], ['fix', 'repair', 'patch', 'clean up', 'rerun', 'commit']),
};

/** An imperative ruling about this project: "不用留了，直接删", "drop support for {gap}". Decisions only. */
export const RULING_VERBS = w(
  [
    '统一',
    '不用留',
    '不需要留',
    '不用保留',
    '不再保留',
    '不保留',
    '别留',
    '不要留',
    '不用兼容',
    '不再兼容',
    '直接删',
    '直接删除',
    '直接删掉',
    '直接去掉',
    '直接干掉',
    '直接移除',
    '直接下掉',
    '全删',
    '全部删',
    '都删',
    '都删掉',
    '删掉吧',
    '删了吧',
    '干掉',
    '砍掉',
    '拿掉',
    '全删掉',
    '全部删掉',
    '全去掉',
    '去掉吧',
    '都改成',
    '全部改成',
    '都换成',
    '全部换成',
    '一律改成',
    '都用',
    // 走 as a verb of choosing a route ("都走 UUPS proxy", "统一走网关").
    '都走',
    '全部走',
    '一律走',
    '直接上',
    '统一上',
    '全用',
    '只用',
    '只允许',
    '禁止',
    '不允许',
    '不许',
    '不准',
    '严禁',
    '必须',
    '务必',
    '一定要',
  ],
  [
    'drop',
    'remove',
    'delete',
    'kill',
    'rip out',
    'get rid of',
    'deprecate',
    'sunset',
    'retire',
    'ban',
    'forbid',
    'scrap',
    'ditch',
    'abandon',
    'must',
    'must not',
    "mustn't",
    'only use',
    'use {gap} everywhere',
    'use {gap} only',
    'is required',
    'are required',
    'is not allowed',
    'are not allowed',
    'is forbidden',
    'are forbidden',
    'nobody',
    'no one',
  ],
);

/** A one-off request frame ("帮我{gap}", "can you {gap}"): an imperative that is a task, not a ruling. */
export const REQUEST_FRAMES = w(
  ['帮我', '帮忙', '麻烦你', '麻烦', '给我', '你能', '能不能', '可以帮', '请帮', '顺手', '顺便', '现在就', '马上'],
  ['can you', 'could you', 'would you', 'help me', 'for me', 'please', 'right now', 'quickly', 'real quick'],
);

/** Who may own a standing wish or ruling: the user, we / this team, this project. */
export const OWN_SUBJECTS = w(
  [
    '我',
    '我们',
    '咱们',
    '咱',
    '你',
    '大家',
    '本项目',
    '这个项目',
    '我们项目',
    '这个仓库',
    '本仓库',
    '我们组',
    '我们团队',
    '本组',
    '这个 repo',
    '这个repo',
    '咱们组',
    '本团队',
  ],
  [
    'i',
    'we',
    "we're",
    "we'll",
    "we've",
    'us',
    'our',
    'you',
    'this repo',
    'this project',
    'this codebase',
    'the project',
    'the repo',
    'our team',
    'this team',
    'the team',
    "let's",
    'everyone',
    'everybody',
  ],
);

/** Someone else's act: colleagues, other teams, vendors. */
export const THIRD_PARTIES = w(
  [
    '同事',
    '他们',
    '她们',
    '他',
    '她',
    '后端组',
    '前端组',
    '测试组',
    '运维组',
    '架构组',
    '安全组',
    '平台组',
    '数据组',
    '老大',
    '我老大',
    '头儿',
    '安全团队',
    '我们 leader',
    '我们leader',
    '后端那边',
    '前端那边',
    '隔壁',
    '别的组',
    '别的团队',
    '其他组',
    '其他团队',
    '另一个团队',
    '客户',
    '甲方',
    '产品经理',
    '老板',
    '领导',
    '组长',
    '主管',
    '经理',
    '架构师',
    '总监',
    '有人',
    '别人',
    '社区',
    '官方',
    '上游',
    '网友',
    '朋友',
    '室友',
    '那个组',
    '他们组',
    '他们团队',
    '某些人',
    '同学',
    '运维',
    '测试同学',
    '产品同学',
    '上面',
    '上头',
    '公司要求',
    '甲方爸爸',
    '对方',
    '对方公司',
    '合作方',
    '友商',
    '竞品',
  ],
  [
    'leader',
    'our leader',
    'dba',
    'my teammate',
    'my teammates',
    'my colleague',
    'my colleagues',
    'my coworker',
    'my coworkers',
    'my manager',
    'my boss',
    'my lead',
    'my tech lead',
    'my team lead',
    'our cto',
    'the cto',
    'our architect',
    'the architect',
    'the platform team',
    'the backend team',
    'the frontend team',
    'the infra team',
    'the security team',
    'the data team',
    'the sre team',
    'the qa team',
    'another team',
    'other teams',
    'the {gap} team',
    'the {gap} teams',
    'the {gap} squad',
    'the {gap} org',
    'the {gap} group',
    'the {gap} department',
    'another {gap} team',
    'the other team',
    'they',
    'he',
    'she',
    'someone',
    'somebody',
    'people',
    'the client',
    'the customer',
    'the vendor',
    'upstream',
    'the maintainers',
    'the community',
    'a friend',
    'my friend',
    'the team next door',
    'their team',
    'some teams',
    'many teams',
    'most teams',
    'a lot of teams',
    'the ops team',
    'the devops team',
    'product',
    'the pm',
    'our pm',
    'management',
    'legal',
    'the reviewer',
    'ops',
    'the dba',
    'the sre',
    'folks',
    'the {gap} folks',
    'the {gap} guys',
    'the company',
    'the business',
    'stakeholders',
    'compliance',
    'tech lead',
    'team lead',
    'our tech lead',
    'our team lead',
    'our lead',
    'our manager',
    'pm',
    'po',
    'qa',
    'cto',
    'ceo',
    'vp',
    'tl',
    'boss',
    'investors',
    'our investors',
    'the board',
    'leadership',
    'our customers',
    'customers',
    'our users',
    'devs',
    'the {gap} devs',
    'senior devs',
    'engineers',
    'the {gap} engineers',
  ],
);

/** Another or an earlier project, or the past: not this project's ruling. */
export const OTHER_PROJECTS = w(
  [
    '上个项目',
    '上一个项目',
    '之前的项目',
    '以前的项目',
    '老项目',
    '另一个项目',
    '别的项目',
    '其他项目',
    '另一个仓库',
    '另一个 repo',
    '别的 repo',
    '别的仓库',
    '老东家',
    '上家公司',
    '前公司',
    '以前公司',
    '之前公司',
    '上一家',
    '去年',
    '前年',
    '当时',
    '那时候',
    '那时',
    '那会儿',
    '那会',
    '以前我们',
    '之前我们',
    '以前在',
    '之前在',
    '原来的项目',
    '老系统',
    '之前那个',
    '以前的{gap}公司',
    '以前的{gap}项目',
    '之前的{gap}公司',
    '之前的{gap}项目',
    '以前的{gap}团队',
    '之前的{gap}团队',
    '上家',
    '老公司',
    '前东家',
    '那个{gap}项目',
    '那个{gap}仓库',
    '那个{gap}公司',
    '那个{gap}团队',
    '之前那家',
    '那家公司',
    '之前{gap}公司',
    '以前{gap}公司',
    '个人项目',
    '私人项目',
    '自己的项目',
    '人家的{gap}项目',
    '别人的{gap}项目',
    // A past time frame of the user's own ("以前做 Cocos 小游戏的时候", "之前在学校那会儿"): how it was done then.
    '以前{gap}的时候',
    '之前{gap}的时候',
    '以前做',
    '之前做',
  ],
  [
    'side project',
    'my side project',
    'personal project',
    'my personal project',
    'my last project',
    'my previous project',
    'my old project',
    'previous project',
    'last project',
    'another project',
    'other project',
    'another repo',
    'other repo',
    'another codebase',
    'my last job',
    'my previous job',
    'my old job',
    'my old company',
    'my previous company',
    'at my last',
    'at my old',
    'at my previous',
    'last year',
    'years ago',
    'back then',
    'back when',
    'at the time',
    'in the old',
    'used to',
    'at google',
    'at amazon',
    'at meta',
    'in a previous',
    'in my previous',
    'in my last',
    'the legacy project',
    'that {gap} project',
    'that {gap} repo',
    'other {gap} project',
    'their {gap} project',
  ],
);

/** "X 说 / according to / X wrote:": reported speech. */
export const REPORTING = w(
  [
    '说',
    '讲',
    '提到',
    '表示',
    '写道',
    '说过',
    '听说',
    '据说',
    '据',
    '按照',
    '转述',
    '在群里说',
    '群里说',
    '发消息说',
    '邮件里说',
    '文档里说',
    '文档上说',
    '文档写着',
    '写着',
    '写的是',
    '告诉我',
    '跟我说',
    '通知说',
    '认为',
    '觉得',
    '建议',
    '要求',
    // A verb of telling or urging with the user as its object: the complement is the other party's request.
    '让我',
    '让我们',
    '叫我',
    '叫我们',
    '劝我',
    '劝我们',
    '催我',
    '催我们',
    '反复强调',
    '一再强调',
    '一直强调',
    '反复说',
    '一再说',
  ],
  [
    'said',
    'says',
    'saying',
    'wrote',
    'writes',
    'mentioned',
    'told me',
    'told us',
    'suggested',
    'wants',
    'insists',
    'decided',
    'thinks',
    'believes',
    'claims',
    'announced',
    'posted',
    'argued',
    'insisted',
    'the docs say',
    'the readme says',
    // A plural source as the subject ("the official Go docs say", "the maintainers recommend").
    'docs say',
    'docs state',
    'docs recommend',
    'guidelines say',
    'maintainers say',
    'maintainers recommend',
    'people say',
    'quote',
    'want us to',
    'wants us to',
    'asked us to',
    'told us to',
    'requires us to',
    'require us to',
    'expects us to',
    'expect us to',
    // A verb of telling, asking or urging with a complement: what the other party asks for.
    'telling me to',
    'tells me to',
    'told me to',
    'telling us to',
    'tells us to',
    'asking me to',
    'asks me to',
    'asked me to',
    'asking us to',
    'asks us to',
    'wants me to',
    'wanted me to',
    'wanted us to',
    'urges',
    'urged',
    'urging',
    'advises',
    'advised',
    'advising',
    'recommends',
    'recommended that',
    'recommending',
    'suggests',
    'suggesting',
    'keeps saying',
    'keep saying',
    'keeps telling',
    'keep telling',
    'keeps pushing',
    // A verb of repeating or stressing with a complement: another party's words said again and again.
    'keeps repeating',
    'keep repeating',
    'repeats that',
    'stresses that',
    'stress that',
    'emphasizes that',
    'emphasize that',
    'keeps reminding',
    'keep reminding',
    'warns that',
    'warn that',
  ],
);

/** A frame that reports someone else's words on its own ("听说", "according to"). */
export const REPORTING_FRAMES = w(
  [
    '我在网上看到',
    '网上看到',
    '看到有人说',
    '有文章说',
    '我看到一篇',
    '听说',
    '据说',
    '据{gap}说',
    '按照{gap}的说法',
    '按{gap}的说法',
    '文档里说',
    '文档上说',
    '文档写着',
    '官方说',
    '传闻',
    '网上说',
    '有人说',
    '都说',
    '大家都说',
    '人家说',
    '网上都说',
    '很多人说',
    '好多人说',
  ],
  [
    'according to',
    'as per',
    'per my',
    'per the',
    'the docs say',
    'the readme says',
    'the docs said',
    'it says',
    'rumor has it',
    'apparently',
    'i heard',
    'i read that',
    'i read {gap} that',
    'i read somewhere',
    'i saw somewhere',
    'i heard somewhere',
    'word is',
    'the {gap} says',
    'the {gap} said',
    'the {gap} recommends',
    'the {gap} states',
    'the {gap} requires',
  ],
);

/** This answer only. */
export const TEMPORARY = w(
  [
    '这次',
    '这一次',
    '本次',
    '这回',
    '暂时',
    '临时',
    '先这样',
    '这个回答',
    '这条回答',
    '仅此一次',
    '只这一次',
    '只是这次',
    '今天先',
    '目前先',
    '这一轮',
    '今天',
    '这会儿',
    '眼下',
    '先不',
    '先别',
    '待会儿',
    '待会',
    '一会儿',
    '这周',
    '本周',
    '这个月',
    '今晚',
    '这两天',
    '这个 sprint',
    '这个sprint',
    '这个迭代',
    '本迭代',
    '这期',
    '这个版本先',
    '休假',
    '请假',
    '出差',
    '一周',
    '两周',
    '几天',
    '两天',
    '三天',
    '一个月',
    '这几天',
    '这个 pr',
    '这个pr',
    '这个 commit',
    '这次的',
    '这一版',
    '这一个',
    // The one answer right after this one is one answer too.
    '下一个回答',
    '下个回答',
    '下一条回答',
  ],
  [
    'for this answer',
    'for the next answer',
    'in the next answer',
    'for your next answer',
    'for the next reply',
    'just this time',
    'this time',
    'for now',
    'just for now',
    'for this one',
    'just for this',
    'only this once',
    'this once',
    'temporarily',
    'for this question',
    'for this reply',
    'in this answer',
    'for the moment',
    'for this response',
    'just here',
    'for today',
    'today',
    'right now',
    'for this pr',
    'in this pr',
    'for this commit',
    'this one time',
    // "this one answer", "this one reply": a determiner of one before the answer.
    'this one answer',
    'this one reply',
    'this single answer',
    'for this task',
    'for this ticket',
    'for this file',
    'for the demo',
    'until friday',
    'until the release',
    'this sprint',
    'this week',
    'tonight',
    'this month',
    'for two weeks',
    'for a week',
    'for a few days',
    'on vacation',
    'on leave',
    'out of office',
    'for the hackathon',
    'for the prototype',
    'for the spike',
    'for the poc',
  ],
);

/** A hypothetical anywhere in the sentence. */
export const HYPOTHETICAL = w(
  ['假设', '假如', '万一', '倘若', '假使', '设想', '如果说', '要是说', '想象一下', '打个比方', '最好能', '要是能', '如果能'],
  [
    'what if',
    'hypothetically',
    'suppose',
    'supposing',
    'imagine',
    'were we to',
    "let's say",
    'lets say',
    'would it be',
    'in theory',
    'in a world where',
    'if we were to',
    'if i were',
    'in an ideal world',
    'would be nice',
    'it would be great if',
  ],
);

/** A conditional opening a clause: an act inside it is hypothetical, a condition beside a rule is not. */
export const CONDITIONAL_OPENINGS = w(['如果', '要是', '若是', '若', '假若', '如若'], ['if', 'in case', 'assuming', 'provided that']);

/** An example, when it opens the clause or sentence ("比如{gap}", "for example: {gap}"). */
export const EXAMPLE_OPENINGS = w(
  ['例如', '比如', '比如说', '举个例子', '举例', '举例来说', '譬如', '打个比方', '像是'],
  ['for example', 'e.g.', 'eg', 'for instance', 'as an example', 'example', 'an example', 'say'],
);

/** Not decided yet. */
export const UNDECIDED = w(
  [
    '还没{gap}对齐',
    '还没对齐',
    '没对齐',
    '还没同步',
    '还没{gap}商量',
    '还没决定',
    '尚未决定',
    '没决定',
    '未决定',
    '还没定',
    '没定',
    '还在考虑',
    '考虑一下',
    '再看看',
    '再想想',
    '待定',
    '不确定',
    '也许',
    '或许',
    '犹豫',
    '还在比较',
    '还在讨论',
    '不一定',
    '还没想好',
    '没想好',
    '拿不准',
    '纠结',
    '还在评估',
    '回头再说',
    '再议',
    '看情况',
    '到时候再说',
    '还没拍板',
    '再商量',
    '先讨论',
    '想一想',
    '以后再说',
    '以后再看',
    '之后再说',
    '再说吧',
    '时候再说',
    '后面再说',
    '再决定',
    '再定',
    '可以考虑',
    '或许可以',
    '也许可以',
    '先别改',
    '先别动',
    '先不改',
    '试试看',
    '先试试',
    '试一下',
    '试一试',
    '晚点再',
    '下次再',
    '过段时间',
    '之后再换',
    '之后再改',
    '以后再换',
    '本来打算',
    '原本想',
    '原来想',
    '本想',
    '要等',
    '等下个月',
    '等下周',
    '下个月再',
    '等发版',
    '有朝一日',
    '有机会',
    '以后有机会',
    '希望有一天',
    '打算',
    '说不好',
    '说不准',
    '谁知道',
    '不好说',
    '难说',
  ],
  [
    'have not decided',
    "haven't decided",
    'not decided',
    'undecided',
    'yet',
    'we could',
    'we might',
    'at some point',
    'not now',
    'not right now',
    'maybe later',
    'some other time',
    'another time',
    'revisit',
    'not this year',
    'not this quarter',
    'but not yet',
    'try it out first',
    "i'll try",
    'let me try',
    'not sure',
    'maybe',
    'considering',
    'thinking about',
    "we'll see",
    'tbd',
    'to be decided',
    'not yet decided',
    'still deciding',
    'perhaps',
    'not certain',
    'unsure',
    "haven't made up",
    'not settled',
    'open question',
    'on the fence',
    'torn between',
    'still evaluating',
    'up in the air',
    'let me think',
    'need to think',
    'not convinced',
    'revisit later',
    'to be discussed',
    'tbc',
    'pending discussion',
    'were going to',
    'was going to',
    'pushed back',
    'fell through',
    'got rejected',
    'was rejected',
    'someday',
    'one day',
    "i'd like to",
    'i would like to',
    'it would be nice to',
    'hopefully',
  ],
);

/** Speculation about what may happen. */
export const SPECULATION = w(
  ['我猜', '估计', '大概', '说不定', '迟早', '早晚', '可能', '应该会', '恐怕', '没准', '八成', '多半', '兴许', '我觉得以后', '看样子'],
  [
    'i bet',
    'i guess',
    'probably',
    'i suspect',
    'likely',
    'sooner or later',
    'eventually',
    'might',
    'may end up',
    'chances are',
    'my guess',
    'i imagine',
    'presumably',
    'i expect',
    'odds are',
    'could end up',
    'i predict',
  ],
);

/** An answer that turns a proposal down, at the start of a turn ("不，{gap}", "no, {gap}", "不行"). */
export const REFUSALS = w(
  ['不', '不要', '不行', '不用', '别', '不好', '不可以', '不同意', '否', '还是别', '别用', '不要用', '不考虑', '等等', '等一下'],
  ['no', 'nope', "don't", 'do not', 'wait', 'hold on', 'not that', 'no way', "let's not", 'i disagree', 'disagree'],
);

/** Polite requests in question form, addressed to the assistant: a standing wish asked, not a question about one. */
export const POLITE_REQUESTS = w(
  [
    '能不能',
    '可不可以',
    '能否',
    '可否',
    '你能',
    '你可以',
    '麻烦你',
    '麻烦',
    '请你',
    '能{gap}吗',
    '可以{gap}吗',
    '能{gap}么',
    '可以{gap}么',
    '行不行',
    '好吗',
    '好不好',
    '可以吗',
    '是不是可以',
    // "以后 X 是不是都设成 Y 比较好？": a choice weighed as a question, put for agreement.
    '是不是{gap}比较好',
    '是不是{gap}更好',
    '行吗',
    '可以吧',
    '你要不要',
    '要不你',
  ],
  [
    'shall we',
    'could we',
    'can we',
    'could we agree',
    'shall we agree',
    'could you',
    'can you',
    'would you',
    'will you',
    'would you mind',
    'could you please',
    'can you please',
    'would you please',
    'you could',
    'is it possible to',
    'would it be possible to',
    // "would it be possible for every change you propose to …": the same request with its subject before "to".
    'would it be possible for',
    'is it possible for',
    'any chance',
    // Chat spelling of "you".
    'could u',
    'can u',
    'would u',
    'u could',
  ],
);

/**
 * Openers of the mood of a suggestion ("要不以后…", "how about we …", "mind adding …?"): the user proposes a
 * standing act and waits for agreement — held for the user, question mark or not (M-5.7).
 */
export const SUGGESTION_OPENERS = w(['要不', '要不然', '不如'], ['how about', 'what about', "why don't we", 'why not', 'mind', 'shall we']);

/** Words that weaken a wish: it holds "if possible", not always (M-5.7 suggests instead of accepting). */
export const WEAKENERS = w(
  [
    '能{gap}就',
    '最好',
    '一般来说',
    '尽量',
    '尽可能',
    '如果可以',
    '可以的话',
    '方便的话',
    '有空的话',
    '能的话',
    // A condition of feasibility or the ideal case weakens the wish; it does not make it hypothetical.
    '理想情况下',
    '能做到的话',
    '做得到的话',
    '条件允许的话',
    '争取',
    '适当',
    '酌情',
    '视情况',
    '大部分情况下',
    '多数情况下',
    // "基本都…", "大体上…": a rule said to hold mostly.
    '基本',
    '基本上',
    '大体上',
    '不强求',
    '不是硬性',
  ],
  [
    'if possible',
    'where possible',
    'when possible',
    'whenever possible',
    'try to',
    'preferably',
    'ideally',
    'if you can',
    'when you can',
    'as much as possible',
    'where it makes sense',
    'when it makes sense',
    'where feasible',
    'if feasible',
    'most of the time',
    'when practical',
    'where practical',
    'if it is not too much trouble',
    'if convenient',
    'mostly',
    'for the most part',
    'not a hard rule',
    'no hard rule',
    'not a strict rule',
  ],
);

/** Weakeners that are modals of advice before a verb ("最好按业务拆开", "ideally split …"): a rule of their own. */
export const ADVICE_MODALS = ['最好', '尽量', '尽可能', 'ideally', 'preferably'];

/**
 * Weak cues of sarcasm or resignation: each is common on its own ("反正" is mostly "anyway"); two of them in one
 * sentence ("…别写了呗，反正…") read as sarcasm.
 */
/**
 * Weak cues of sarcasm, by class; two of them in one sentence read as sarcasm (held for the user, M-5.7):
 * resignation ("反正", "whatever"), a negative universal that dismisses the rule's point ("没人看", "who needs
 * …"), laughter or a wink ("lol", "🙂"), and an ironic consequence ("that'll speed things up").
 */
export const SARCASM_CUES = w(
  [
    '反正',
    '不管了',
    '呗',
    '随便',
    '没人',
    '没有人',
    '谁也不',
    '谁都不',
    '不会有人',
    '🙂',
    '哈哈',
    // An exasperated "might as well … and be done" (干脆…得了) and a complaint about a repeat (又是).
    '干脆{gap}得了',
    '干脆{gap}算了',
    '又是',
    // Praise standing alone after an absurd consequence ("…，完美。", "…. Perfect.").
    '完美',
    '绝了',
  ],
  [
    'anyway',
    'whatever',
    'i guess',
    'nobody',
    'no one',
    'who needs',
    'who cares',
    'lol',
    'lmao',
    "that'll",
    'that will',
    'might as well',
    'may as well',
    'perfect',
    'genius',
    'brilliant',
  ],
);

/** A concession opening a sentence ("sure, …", "哦，那…"): a sarcasm cue only beside another one. */
export const SARCASM_OPENERS = w(['哦', '噢', '行吧', '好吧', '哈', '呵'], ['sure', 'fine', 'oh', 'oh well', 'ha', 'heh']);

/** Words of assent: said twice in a row at the start ("好啊好啊", "对对对"), a cue of sarcasm. */
export const ASSENT_WORDS = ['好', '行', '对', '是', '嗯'];

/** Markers of sarcasm: the words may say the opposite of what is meant. */
export const SARCASM = w(
  [
    '行行行',
    '好好好',
    '是是是',
    '多方便啊',
    '多好啊',
    '多省事',
    '猜去吧',
    '多简单',
    '最喜欢{gap}了',
    '出了事再说',
    '呵呵',
    '真是太好了',
    '好棒棒',
    '真棒啊',
    '太棒了呢',
    '可真行',
    '服了',
    '🙄',
    '又来了',
    '反正也没人',
    '反正没人',
    // "反正到时候背锅的是我": the cost named as the speaker's own, the proposal meant the other way.
    '反正{gap}的是我',
    '反正{gap}的还是我',
    '反正也没',
    '反正用户会',
    '对对对',
    '😅',
    '🙃',
    '🤡',
    '随便你',
    '随你',
    '爱怎么',
    '想怎么{gap}就怎么',
  ],
  [
    'by all means',
    'so much easier',
    "that'll help",
    "that'll be fun",
    'yeah yeah',
    'yeah right',
    'oh great',
    'oh sure',
    'because that worked so well',
    'what could go wrong',
    'said no one ever',
    '/s',
    '🙄',
    '🙃',
    '😅',
    "i'm sure {gap} will love it",
    'what could possibly go wrong',
    'whatever you want',
    'i give up',
    'genius idea',
    'sure, why not',
    'as if',
  ],
);

/** A correction of what the user said before: the restated rule is held for the user (M-5.7). */
export const CORRECTIONS = w(
  [
    '纠正一下',
    '更正一下',
    '更正',
    '纠正',
    '我是说',
    '我说的是',
    '我的意思是',
    '准确地说',
    '说错了',
    '打错了',
    '我刚才是说',
    '不对，',
    '说反了',
    '写反了',
  ],
  [
    // What was said before named as a slip ("I typed X by mistake", "my bad, …", "I had it backwards").
    'by mistake',
    'my bad',
    'i had it backwards',
    'correction:',
    'to correct myself',
    'i mean',
    'i meant',
    'sorry, i meant',
    'let me correct',
    'to clarify',
    'what i meant',
    'i misspoke',
    'i mistyped',
    'i got that wrong',
  ],
);

/** A party's rule taken on by this project ("我们这个项目也得跟", "we'll follow that"). */
export const ADOPTIONS = w(
  [
    '也得跟',
    '也要跟',
    '也跟',
    '也照做',
    '照做',
    '也得遵守',
    '也要遵守',
    '遵守',
    '跟着做',
    '也这么做',
    '也按这个',
    '按{gap}说的来',
    '按{gap}说的办',
    '照{gap}说的来',
    '照{gap}说的做',
    '就按这个来',
    '照这个来',
    '按这个来',
    '也照这个',
    '也跟着',
    '就跟着',
    '跟着这么',
    '照着做',
  ],
  [
    "we'll follow",
    'we will follow',
    'we have to follow',
    'we follow',
    'we comply',
    'applies to us',
    'we go along',
    "we're adopting it",
    'we adopt it',
    'we are following',
    "we're following",
    'we do the same',
    "we'll do the same",
    'we will do the same',
    'same here',
    'treat it as our',
    'make it our',
    'take it as our',
  ],
);

/** Prepositions before a party that make it an object, not the speaker ("跟运维确认过了", "checked with the SRE team"). */
/**
 * A verb of making right after a party and before 的 ("官方出的术语表", "厂商提供的 SDK"): the party made the thing
 * the noun names — it says nothing there, so it is no speaker (a verb of saying or advising is: "官方推荐的").
 */
/**
 * Parties whose word also modifies a noun ("官方镜像", "社区插件", "上游代码", "官方的 lint 规则"): before a noun it names a
 * kind of thing, not who speaks; the noun phrase may still speak ("官方文档说…").
 */
export const ATTRIBUTIVE_PARTIES = ['官方', '社区', '上游'];
export const PARTY_MADE = ['出', '发', '发布', '整理', '提供', '编', '做', '维护', '开源'];

export const PARTY_PREPOSITIONS = w(
  ['跟', '和', '与', '同', '向', '给', '找', '问', '对', '帮', '替', '被', '让'],
  ['with', 'to', 'for', 'asked'],
);

/** A guess that weakens a yes ("也许", "probably", "I guess"): beside a confirmation it holds it for the user. */
export const HEDGED_GUESSES = w(
  ['也许', '或许', '可能', '大概', '应该可以', '应该行', '应该没问题', '估计可以', '估计行', '兴许'],
  ['maybe', 'perhaps', 'probably', 'possibly', 'i guess', 'i suppose', 'guess so', 'maybe so', 'could be', 'i think so'],
);
/** A yes for a trial ("好吧，先试试看") takes the proposal on for a while only: it does not weaken a yes, it puts it off. */
export const TRIAL_ASSENTS = w(['先试试看', '先试试', '试试看'], []);
/**
 * A hedged yes as a whole clause of an answer to a proposal ("也许吧", "maybe?", "I guess"): neither a confirmation
 * nor a refusal ("maybe later" puts it off; the clause must hold nothing else).
 */
export const HEDGED_ASSENTS = w([...HEDGED_GUESSES.zh, ...TRIAL_ASSENTS.zh], [...HEDGED_GUESSES.en, ...TRIAL_ASSENTS.en]);

/**
 * An answer that settles on the proposal for now only ("先这样吧", "暂时就这样", "fine for now"): a confirmation
 * whose own words make it provisional.
 */
export const PROVISIONAL_SETTLINGS = w(
  ['先这样', '就先这样', '暂时这样', '暂时就这样', '暂时先这样', '先这么着', '先这么办', '先这么定', '先按这个来', '暂且这样'],
  ['fine for now', 'ok for now', 'okay for now', 'good enough for now', 'works for now', 'that will do for now'],
);

/** Typo'd forms of the commonest standing markers, matched like them ("form now on", "以侯"). */
export const TYPO_SOURCES = w(
  ['以后', '今后', '默认', '以后都'],
  [
    'from now on',
    'going forward',
    'by default',
    'always',
    'never',
    'every time',
    'in the future',
    'moving forward',
    'going fwd',
    'from now',
  ],
);

/** Words that may lead an item a confirmation names ("yep, let's do B", "行，就选方案二", "go with option 2"). */
export const ITEM_CHOICE_LEADS = w(
  ['就选', '选', '就用', '用', '就', '好', '行', '可以'],
  ["let's do", "let's go with", "let's take", 'go with', 'pick'],
);

/**
 * How a list item is named (items.ts): the noun of an option a label follows ("方案二", "option B"), the nouns an
 * ordinal goes with ("第二条", "the second point"), and the words that lead a bare label in an answer by parts
 * ("yes to A", "skip B", "不要 B").
 */
export const ITEM_LABEL_NOUNS = w(['方案', '选项'], ['option']);
export const ITEM_NOUNS = w(
  ['个', '条', '点', '项', '种', '部分', '套'],
  ['one', 'part', 'point', 'item', 'option', 'suggestion', 'proposal', 'bit', 'idea', 'approach', 'choice'],
);
/** A word of all after a count of items ("两个都可以", "三条全部照做"). */
export const ITEM_NAMES_ALL = w(['都', '全都', '全部', '一起'], []);
export const ITEM_ANSWER_LEADS = w(
  ['不要', '不用', '先别', '先不要', '别'],
  ['yes to', 'no to', 'ok on', 'ok with', 'yes on', 'not', 'skip', 'drop', 'go for', 'fine with'],
);

/** Names of a proposal, judged by a confirmation ("这个思路好", "that approach works"). */
export const PROPOSAL_NOUNS = w(
  ['思路', '方案', '办法', '做法', '想法', '建议', '主意', '这样', '设计'],
  ['approach', 'plan', 'idea', 'option', 'suggestion', 'way', 'design', 'proposal'],
);

/** A part of a proposal a confirmation may name ("第一点同意", "the first point sounds good"). */
export const PROPOSAL_PARTS = w(
  [
    '第一点',
    '第二点',
    '第三点',
    '第一条',
    '第二条',
    '前两条',
    '前三条',
    '前三点',
    '前两个',
    '前半部分',
    '后半部分',
    '第一个',
    '第二个',
    '前面那个',
    '前两点',
  ],
  ['the first point', 'the second point', 'the first part', 'the second part', 'point one', 'point two', 'part one', 'the first one'],
);

/** Words pointing back at the proposal a confirmation takes ("go ahead with the layout you proposed", "按这个来"). */
export const PROPOSAL_REFERENCES = w(
  ['你说的', '你提的', '你建议的', '按这个', '就按这个', '照这个', '照你说的', '这个方案', '这么办'],
  ['you proposed', 'you suggested', 'you described', 'you outlined', 'that way', 'as you said', 'as proposed', 'as suggested'],
);

/** What extends a confirmed proposal into a rule ("make it the standard", "any new client", "都按这个来"). */
export const EXTENSIONS = w(
  ['都按', '都照', '标准', '规范', '以后都', '统一', '约定'],
  [
    'the standard',
    'any new',
    'every new',
    'all new',
    'the default',
    'the convention',
    'the rule',
    'our standard',
    'from now on',
    'going forward',
    'everywhere',
  ],
);

/** Words pointing at one thing in particular: a rule about it is a one-off task. */
export const DEICTICS = w(
  ['这个', '那个', '这里', '那里', '这段', '这行', '这次', '这儿', '上面的', '下面的'],
  ['this', 'these', 'those', 'there'],
);

/** The scope of this project ("这个仓库里", "in this repo", "here"). */
/**
 * A project named by its determiner as not this one: an indefinite or possessive one with a word of its own
 * ("for a hobby project of mine", "in my personal dotfiles repo", "我自己的一个 demo 仓库"); "this repo" is ours.
 */
export const OTHER_PROJECT_NP = {
  enDeterminers: ['a', 'an', 'another', 'one of my', 'my own', 'my', 'some'],
  enPrepositions: ['for', 'in', 'on', 'at', 'with'],
  zhOwners: ['我自己的', '我的', '我自己', '我'],
  zhIndefinites: ['一个', '某个', '另一个'],
  /** A determiner of otherness that names another project without an owner ("另一个 Nx repo", "别的 Go 项目"). */
  zhOthers: ['另一个', '另外一个', '别的', '其他的', '其他'],
  nouns: w(['项目', '仓库', 'repo', '代码库'], ['project', 'projects', 'repo', 'repos', 'repository', 'codebase', 'app']),
  /** A body of one's own work named only after "my" and a word of its own ("for my thesis code"). */
  ownWork: ['code', 'scripts', 'notebooks'],
  /**
   * "in the mobile app project", "for the billing repo": a project named by words of its own after "the" is
   * another one — unless the words say it is this one ("the whole project", "the current repo").
   */
  namedNouns: ['project', 'repo', 'repository', 'codebase'],
  thisModifiers: ['whole', 'entire', 'current', 'same', 'main', 'root', 'new', 'this', 'our', 'present', 'overall', 'top-level'],
  /** Another group as the owner of a thing ("另一个团队的 X", "the other team's X"): their thing, not this project. */
  otherOwners: w(
    [
      '另一个团队的',
      '别的团队的',
      '其他团队的',
      '隔壁团队的',
      '另一个组的',
      '别的组的',
      '其他组的',
      '隔壁组的',
      '别的公司的',
      '另一家公司的',
    ],
    ["another team's", "the other team's", "a different team's", "other teams'", "another company's", "a partner team's"],
  ),
};

export const PROJECT_SCOPES = w(
  [
    '我们这里',
    '咱们这里',
    '我们这边',
    '这个仓库',
    '本仓库',
    '这个项目',
    '本项目',
    '我们项目',
    '项目里',
    '仓库里',
    '这个 repo',
    '这个repo',
    '这个服务里',
  ],
  [
    'in this repo',
    'in this project',
    'in this codebase',
    'here',
    'for this repo',
    'for this project',
    'in this service',
    'for this service',
    'across the repo',
    'across the codebase',
    // Our own things as the scope ("in our contracts", "across our services").
    'in our',
    'in all our',
    'across our',
  ],
);

/** A topic of answers an instruction may follow ("回答里{gap}，附上{gap}", "in your answers, {gap}"). */
export const ANSWER_TOPICS = w(
  ['回答里', '回答中', '回答时', '回答的时候', '回复里', '回复时', '解释的时候', '写代码的时候', '给代码的时候', '贴代码的时候'],
  ['in your answers', 'in answers', 'when you answer', 'in your replies', 'when you reply', 'when you explain', 'in code examples'],
);

/** Retractions that hold something back from the Memory ("先别记", "don't save that"): they count anywhere in a later turn. */
export const MEMORY_HOLDS = w(
  ['先别记', '别记', '不要记', '别记下来', '先不记', '先别定', '我再想想', '说了不算', '我说了不算'],
  ["don't save that", "don't remember that", "don't record that", 'do not save that', "don't write that down", 'hold off on that'],
);

/**
 * Words of a later turn that hold back what was said before, wherever they stand in that turn: the thing is
 * not settled after all ("还没拍板", "undecided"), is put off ("先不定", "再比一比"), or is voided ("作废").
 */
export const LATER_HOLDS = w(
  [
    '先不定',
    '先不设',
    '先不上',
    '先不加',
    '先不做',
    '先不改',
    '还没定',
    '没定下来',
    '还没决定',
    '还没拍板',
    '没拍板',
    '还没{gap}对过',
    '还没{gap}确认',
    '还没{gap}商量',
    '还没{gap}同意',
    '待定',
    '作废',
    '再比一比',
    '再比比',
    '再商量',
    '再讨论',
    '再评估',
  ],
  [
    'undecided',
    'not decided',
    'not agreed',
    "haven't agreed",
    'have not agreed',
    "haven't decided",
    'decide next',
    'decide later',
    'decide after',
    "we'll decide",
    'scrap that',
    'not settled',
    'still open',
    'on hold',
  ],
);

/**
 * A later turn's clause that holds a thing back for now: one of these adverbs, a negation, and the verb that
 * ends the clause ("Loki 先不搞了", "暂时不加").
 */
export const HOLD_ADVERBS = ['先', '暂时', '暂且', '暂'];

/** The user disagreeing with the rule just stated ("…, though I disagree"): it is not the user's own. */
export const DISAGREEMENT = w(
  ['我不同意', '我不太同意', '我不认同', '我反对', '我不赞成'],
  ['i disagree', "i don't agree", 'i do not agree', "i'm against it", 'i am against it'],
);

/** "…，但团队还没讨论", "…, but the team hasn't discussed it": not yet, and a verb of agreeing on something. */
export const NOT_YET = w(['还没有', '还没', '尚未', '还未'], ["hasn't", "haven't", 'has not', 'have not', 'not yet']);
export const AGREEING_VERBS = w(
  ['讨论', '商量', '决定', '确认', '同意', '对齐', '拍板', '评审', '通过'],
  ['discussed', 'decided', 'agreed', 'approved', 'confirmed', 'signed off', 'aligned', 'reviewed'],
);

/** Pronouns of other people as a subject ("大家都觉得…"): someone besides the user speaks. */
export const ZH_OTHER_PRONOUNS = ['大家', '别人', '人家', '各位', '他们', '她们'];

/** A trial: what is tried for a while is provisional ("先试一周看看", "let's try it for a week"). */
export const TRIAL = w(['先试', '试行', '试用', '试运行'], ['try it for', 'for a trial', 'trial run', 'try this for']);

/** Words pointing back at what was just said, opening a later clause ("这个先不急"). */
export const ZH_ANAPHORS = ['这个', '这事', '这件事', '这条', '这点', '这一条', '这块'];

/** Adverbs and subjects around a retraction that name nothing of its topic ("yarn 彻底不用了": the topic is yarn). */
export const TOPIC_ADVERBS = ['彻底', '完全', '全部', '就', '都', '也', '先', '还是', '那', '我们', '咱们', '暂时', '直接', '以后', '再'];

/** Verbs of choosing: "还是" and one of them opening a later turn's clause settles the other way ("还是用现有的"). */
/**
 * A condition that the project itself switches to another choice ("如果哪天我们换成 Nx", "if we ever move to Bazel"):
 * a rule under it is for a setup not chosen yet.
 */
export const PROJECT_SWITCH = {
  subjects: w(['我们', '咱们', '项目', '团队', '仓库'], ['we', 'the project', 'the team', 'the repo']),
  verbs: w(
    ['换成', '换到', '迁到', '迁移到', '改用', '切到', '切换到', '转到'],
    ['switch to', 'switch over to', 'move to', 'migrate to', 'moved to', 'switched to', 'migrated to'],
  ),
};

/** A predicate that only points at what happened ("每次都这样", "总是这样", "always like this"): a complaint, no rule. */
export const POINTING_PREDICATES = w(
  ['这样', '那样', '这个样子', '这个样', '如此', '这德行'],
  ['like this', 'like that', 'the same', 'this way', 'that way'],
);

/** Verbs of advising or requiring, for another party as their subject ("the auditors recommend", "安全组建议"). */
export const ADVISING_VERBS = w(
  ['建议', '推荐', '要求'],
  [
    'recommend',
    'recommends',
    'recommended',
    'suggest',
    'suggests',
    'suggested',
    'advise',
    'advises',
    'advised',
    'require',
    'requires',
    'wants',
  ],
);

/** Verbs of keeping the old way ("还是留着", "还是保留"). */
export const KEEPING_VERBS = ['留着', '保留', '保持', '照旧', '要', '带着', '加上', '写'];

export const CHOICE_VERBS = ['用', '选', '走', '保持', '继续用', '沿用', '维持', '留着', '回到', '换回'];

/** Words of a later turn that take back a part of what was said ("私有的那条去掉吧", "drop the part about …"). */
export const LATER_PARTIAL = w(
  ['那条{gap}去掉', '那条去掉', '这条去掉', '那部分{gap}去掉', '那部分去掉', '那条不要', '那句去掉', '那一条去掉'],
  ['drop the part', 'remove the part', 'leave out the part', 'drop that part', 'without the part'],
);

/**
 * A later clause that names one part of a statement (by a pointer after its words, "biome 那条", "the Playwright
 * part", or by ordinal, "第二条", "the second") and takes it back or keeps it (retraction-parts.ts).
 */
export const PART_POINTERS = w(
  ['那条', '这条', '那一条', '那个', '这个', '那部分', '这部分', '那句', '这句', '那项', '那点', '那一点', '那块', '那段', '那套'],
  ['part', 'bit', 'one', 'rule', 'point', 'item', 'line', 'piece', 'clause'],
);
export const PART_DROPS = w(
  ['不要了', '不用了', '算了', '撤回', '收回', '去掉', '删掉', '拿掉', '划掉', '作废', '别记', '不要记', '不算', '取消', '免了', '不加了'],
  [
    'drop',
    'scratch',
    'strike',
    'remove',
    'take back',
    'withdraw',
    'ignore',
    'forget',
    'skip',
    'cancel',
    'leave out',
    'never mind',
    'nevermind',
    "don't save",
    "don't keep",
    "don't store",
    "doesn't count",
    'is off',
  ],
);
export const PART_KEEPS = w(
  ['保留', '留着', '不变', '照旧', '还算数', '算数', '继续有效', '有效', '照常'],
  ['keep', 'keeps', 'stays', 'stay', 'stands', 'still stands', 'holds', 'still holds', 'still applies'],
);
/** "只保留 X", "just keep X": a keep that leaves out every other part. */
export const PART_ONLY = w(['只', '只要', '仅'], ['only', 'just']);

/** Words that cancel the statement before them. */
export const RETRACTIONS = w(
  [
    '算了',
    '当我没说',
    '不对',
    '撤回',
    '收回',
    '忘了吧',
    '别管了',
    '刚才说错了',
    '说错了',
    '不用了',
    '还是算了',
    '不要了',
    '作罢',
    '先别记',
    '别记',
    '不要记',
    '先别定',
    '别记下来',
    '先不记',
    '开玩笑的',
    '开玩笑',
    '开个玩笑',
    '我再想想',
    '说了不算',
    '我说了不算',
    '我收回',
    '当作没说',
    '划掉',
    '没事了',
    '当没说',
  ],
  [
    'scratch that',
    'never mind',
    'nevermind',
    'nvm',
    'forget it',
    'forget that',
    'forget what i said',
    'ignore that',
    'ignore what i said',
    'forget what i just said',
    'forget about that',
    'disregard that',
    'i take that back',
    'take that back',
    'on second thought',
    'actually no',
    'actually, no',
    'wait no',
    'nah',
    'not anymore',
    'strike that',
    'cancel that',
    'my bad',
    'just kidding',
    'jk',
    'kidding',
    "don't save that",
    "don't remember that",
    "don't record that",
    'do not save that',
    "don't write that down",
    'hold off on that',
    'forget i said that',
    'hold off',
    'forget i said anything',
    'ignore what i just said',
  ],
);

/** A tag question right after a statement turns it into a question ("{gap}，你觉得呢？"). */
export const TAG_QUESTIONS = w(
  [
    '你觉得呢',
    '你觉得怎么样',
    '怎么样',
    '行吗',
    '可以吗',
    '好吗',
    '对吧',
    '如何',
    '行不行',
    '好不好',
    '可不可以',
    '你看呢',
    '合适吗',
    '有问题吗',
  ],
  [
    'what do you think',
    'thoughts',
    'right',
    'ok',
    'okay',
    'sound good',
    'sounds good',
    'agree',
    'make sense',
    'any objections',
    'does that work',
    'wdyt',
    'yes or no',
  ],
);

/** Chinese question signals besides the question mark. */
export const ZH_QUESTION = {
  /** Sentence-final particles. */
  finals: ['吗', '么', '呢'],
  /** A-not-A questions. */
  aNotA: [
    '要不要',
    '是不是',
    '能不能',
    '可不可以',
    '好不好',
    '行不行',
    '对不对',
    '有没有',
    '该不该',
    '会不会',
    '用不用',
    '需不需要',
    '应不应该',
    '值不值得',
    '合不合适',
    '算不算',
    '是否',
  ],
  /** wh-words; a wh-word after 不管/无论 or before 都 is a universal, not a question. */
  wh: ['为什么', '为啥', '怎么', '怎样', '如何', '哪个', '哪些', '哪种', '哪里', '什么', '什么时候', '啥时候', '多少', '多久', '谁', '啥'],
  universals: ['不管', '无论', '不论', '任何', '都'],
  /** Indirect questions. */
  indirect: ['我想知道', '我想问', '我在想', '想问一下', '不知道', '好奇', '请教', '想确认', '有没有必要', '是否需要'],
};

/** English question signals besides the question mark. */
export const EN_QUESTION = {
  /** An auxiliary opening a sentence is a question when a subject follows it ("should we {gap}", not "do use {gap}"). */
  auxiliaries: [
    'should',
    'shall',
    'could',
    'would',
    'can',
    'do',
    'does',
    'did',
    'is',
    'are',
    'will',
    'may',
    'might',
    'have',
    'has',
    'was',
    'were',
    "isn't",
    "aren't",
    "don't",
    "doesn't",
    "shouldn't",
    "wouldn't",
    "can't",
    "won't",
  ],
  subjects: [
    'we',
    'you',
    'i',
    'it',
    'they',
    'this',
    'that',
    'these',
    'those',
    'the',
    'our',
    'there',
    'he',
    'she',
    'anyone',
    'anybody',
    'someone',
    'everyone',
    'all',
    'a',
    'an',
    'my',
    'your',
  ],
  wh: ['what', "what's", 'whats', 'why', "why's", 'how', "how's", 'which', 'who', 'whose', 'whom', 'wanna', 'any'],
  /** "when/where" open a question only with an auxiliary after them; otherwise they open a condition. */
  conditionalWh: ['when', 'where'],
  indirect: [
    "i'm wondering",
    'i am wondering',
    'i wonder',
    'wondering whether',
    'wondering if',
    "i'm curious",
    'curious whether',
    'curious if',
    'do you think',
    'not sure whether',
    'not sure if',
    'any thoughts',
    'any idea',
    'is it worth',
    'is there a',
    'i was wondering',
    'i want to know',
    'can you tell me',
    'let me know whether',
    'let me know if',
    'quick question',
    'question:',
    'does anyone',
    'what do you think',
    'should we',
    'would it make sense',
    'does it make sense',
    'thoughts on',
  ],
};

/** A clause that states a condition of a rule ("when you're unsure {gap}", "遇到{gap}的时候"): markers inside it are not the act. */
export const CONDITION_OPENINGS = w(
  ['如果', '要是', '若', '当', '遇到', '碰到', '每当', '只要', '一旦', '凡是', '在', '每次'],
  [
    'if',
    'when',
    'whenever',
    'once',
    'unless',
    'in case',
    'where',
    'wherever',
    'before',
    'after',
    'until',
    'while',
    'for any',
    'for every',
    'any time',
    'anytime',
  ],
);

/** A thing right here, not the project: a ruling about it is a one-off task. */
export const LOCAL_OBJECTS = w(
  [
    '这行',
    '这一行',
    '那一行',
    '这个函数',
    '这个方法',
    '这个变量',
    '这个文件',
    '这个类',
    '这个参数',
    '这个 import',
    '这个typo',
    '这个 typo',
    '这段',
    '这段代码',
    '这里',
    '那里',
    '上面那段',
    '这个 bug',
    '这个bug',
    '这两行',
    '这几行',
    '这个注释',
  ],
  [
    'this line',
    'that line',
    'these lines',
    'this function',
    'this method',
    'this variable',
    'this file',
    'this class',
    'this param',
    'this parameter',
    'this import',
    'that import',
    'the typo',
    'this typo',
    'this snippet',
    'this block',
    'this bug',
    'this comment',
    'line',
  ],
);

/** Words that make a decision explicit, so a request frame around it does not make it a task. */
export const EXPLICIT_DECISION = w(
  ['决定', '定了', '敲定', '拍板', '最终', '结论', '决议', '约定'],
  ['decided', 'decision', 'final', 'settled', 'agreed', 'ruling', 'policy'],
);

/** English ruling verbs that must open their clause (an imperative), after at most "let's / we'll / just". */
export const IMPERATIVE_RULINGS = w(
  [],
  [
    'drop',
    'remove',
    'delete',
    'kill',
    'rip out',
    'get rid of',
    'deprecate',
    'sunset',
    'retire',
    'ban',
    'forbid',
    'only use',
    'scrap',
    'ditch',
    'abandon',
    'revert',
  ],
);

/** Verbs of telling or checking: a question after them is their object ("说一下有没有用上", "check whether"). */
export const EMBEDDING_VERBS = w(
  [
    '说一下',
    '说明',
    '告诉我',
    '看看',
    '看一下',
    '看',
    '检查',
    '确认',
    '提醒我',
    '标出',
    '列出',
    '注明',
    '查一下',
    '判断',
    '写清楚',
    '讲一下',
    '顺便说',
    '说说',
    '说下',
    '讲下',
    '看下',
    '指出',
    '写',
    '讲',
    '解释',
    '先写',
    '说清楚',
    '讲清楚',
    '说',
    '再说',
    '先说',
    '附',
    '附一下',
    '附上',
    '标一下',
    '写一下',
    '总结',
    '概括',
    '写明',
    '标明',
    '分析',
  ],
  [
    'tell me',
    'check',
    'mention',
    'summarize',
    'summarise',
    'describe',
    'note',
    'point out',
    'say',
    'explain',
    'list',
    'show',
    'verify',
    'confirm',
    'flag',
  ],
);

/** "like / unlike / 像{gap}那样": a mention of another project that compares, not one that owns the act. */
export const COMPARISONS = w(['像', '跟', '和', '比', '不像', '不要像', '别像', '同'], ['like', 'unlike', 'than', 'as in', 'same as']);

/** The body of a description of software behaviour: "总是报错", "fails on unknown properties". */
export const DESCRIPTION = w(
  [
    '报错',
    '失败',
    '挂',
    '超时',
    '崩',
    '崩溃',
    '卡住',
    '卡',
    '出错',
    '不过',
    '爆红',
    '变红',
    '抛',
    '返回',
    '输出',
    '打印',
    '报',
    '飘红',
    '不稳定',
    '漏',
    '丢',
    '重试',
    '会',
    '是',
    '为',
    '就是',
    '开启了',
    '启用了',
    '关闭了',
    '打开了',
    '用了',
    '使用了',
    '走的是',
    '用的是',
    '指向',
    '生成',
  ],
  [
    'fails',
    'failing',
    'throws',
    'returns',
    'crashes',
    'freezes',
    'hangs',
    'dies',
    'stalls',
    'explodes',
    'lags',
    'spins',
    'breaks',
    'times out',
    'errors',
    'logs',
    'prints',
    'is',
    'are',
    'was',
    'were',
    'uses',
    'sends',
    'retries',
    'skips',
    'ignores',
    'emits',
    'writes',
    'reads',
    'runs',
    'points',
    'picks',
    'resolves',
    'sets',
    'adds',
    'includes',
    'excludes',
    'will',
    "won't",
    "doesn't",
    'does',
    'has',
    'creates',
    'blocks',
    'rejects',
    'accepts',
    'serializes',
    'loads',
    'caches',
    'expires',
    'falls back',
    'defaults',
    'comes with',
    'ships with',
    'treats',
    'generates',
    'allows',
  ],
);

/** Standing markers that describe how things behave when their subject is a thing, not a person. */
export const DESCRIPTIVE_MARKERS = w(
  ['总是', '一直', '始终', '每次{gap}都', '默认', '默认情况下', '默认的情况下', '老是', '经常', '永远', '一直都'],
  ['always', 'never', 'by default', 'every time', 'default to', 'each time', 'whenever'],
);

/** A marker word inside one of these is a noun, not a speech act ("以后端", "代码示例", "default branch"). */
export const NOUN_COMPOUNDS = w(
  [
    '以后端',
    '以后台',
    '以后续',
    '以后面',
    '以后缀',
    '以后者',
    '以后果',
    '以后期',
    '废弃的',
    '弃用的',
    '下线的',
    '以后再',
    '之后再',
    '以后有空',
    '以后有时间',
    '的默认',
    '默认值',
    '默认分支',
    '默认参数',
    '默认配置',
    '默认端口',
    '默认的',
    '默认是',
    '最终一致',
    '最终用户',
    '最终产物',
    '决定性',
    '决定因素',
    '约定俗成',
    '以后再说',
    '以后再看',
    '以后再议',
    '之后再说',
  ],
  [
    'default branch',
    'default value',
    'default values',
    'default port',
    'default config',
    'default configuration',
    'default settings',
    'the default',
    'a default',
    'defaults to',
    'always-on',
    'never-ending',
    'never mind',
    'as always',
    'as usual',
    'final call to',
    'adopt a',
    'dropdown',
    'rule out',
    'ruled out',
  ],
);

/** Past-time or state words that make a sentence a fact about the code, not discussion. */
export const CODE_FACT = w(
  [
    '一直是',
    '一直都是',
    '原因是',
    '是因为',
    '根因是',
    '问题出在',
    '日志看',
    '从日志',
    '里有个',
    '里面有个',
    '中有个',
    '有个 bug',
    '有个bug',
    '我们用的是',
    '我们现在用',
    '我们目前用',
    '现在用的是',
    '目前用的是',
    '现在用',
    '目前用',
    '当前用',
    '现在是',
    '目前是',
    '当前是',
    '用的是',
    '跑在',
    '依赖的是',
    '依赖',
    '实现在',
    '写在',
    '定义在',
    '返回的是',
    '返回',
    '版本是',
    '配置的是',
    '位于',
    '放在',
    '继承自',
    '调用了',
    '里面有',
    '一共有',
    '目前有',
    '现在有',
    '读取的是',
    '调用的是',
    '读的是',
    '写的是',
    '指向的是',
    '继承的是',
    '实现的是',
    '连的是',
  ],
  [
    'defaults to',
    'because',
    'the cause is',
    'caused by',
    'the reason is',
    'turns out',
    'currently uses',
    'currently use',
    'we use',
    'we have',
    'we run',
    'we deploy',
    'uses',
    'is using',
    'is written in',
    'is implemented in',
    'runs on',
    'depends on',
    'returns',
    'is defined in',
    'lives in',
    'is located in',
    'extends',
    'calls',
    'there are',
    'there is',
    'has',
    'contains',
    'is set to',
    'is configured',
    'points to',
    'version is',
    'is on version',
    'is pinned to',
  ],
);

/** What marks a discussion the user is having (needed with a fact for discussion context). */
/** "当前在 debug", "现在在排查": an adverb of now, the progressive 在 and a verb of work — someone at work on it. */
export const NOW_AT_WORK = {
  adverbs: ['当前', '现在', '目前', '眼下', '这会儿'],
  verbs: ['debug', '排查', '调试', '定位', '修', '查', '看', '研究', '调研', '处理', '搞', '弄', '改'],
};

export const DISCUSSION = w(
  [
    '我们在',
    '我在',
    '正在',
    '在比较',
    '在讨论',
    '在考虑',
    '在纠结',
    '在权衡',
    '在看',
    '在排查',
    '在调研',
    '在评估',
    '想要',
    '想',
    '考虑',
    '讨论',
    '聊',
    '谈',
    '商量',
    '研究',
    '比较',
    '对比',
    '方案',
    '纠结',
    '权衡',
    '评估',
    '调研',
    '排查',
    '尝试',
    '试试',
    '目标',
    '担心',
    '问题是',
    '接下来',
    '下一步',
    '思路',
  ],
  [
    "we're",
    'we are',
    "i'm",
    'i am',
    'comparing',
    'discussing',
    'considering',
    'weighing',
    'evaluating',
    'investigating',
    'debugging',
    'trying',
    'planning',
    'plan',
    'want',
    'goal',
    'worried',
    'concern',
    'next step',
    'options',
    'option',
    'trade-off',
    'tradeoff',
    'figure out',
    'looking into',
    'thinking',
  ],
);

/** A short confirmation of the proposal just before ("好", "同意", "sounds good, go with that"). */
export const CONFIRMATIONS = w(
  [
    '同意',
    '好的',
    '好滴',
    '好嘞',
    '好',
    '行',
    '可以',
    '没问题',
    '就这么办',
    '就这样',
    '就这么定',
    '就这么定了',
    '按你说的',
    '照你说的',
    '听你的',
    '就按这个',
    '就用这个',
    '就这个',
    '对',
    '是的',
    '嗯',
    '嗯嗯',
    '确认',
    '赞成',
    '那就这样',
    '就这么做',
    '定了',
    '就它了',
    '成',
    '妥',
    '可',
    '要',
    '对的',
    '没错',
    '就这么搞',
    '搞吧',
    '整吧',
    '冲',
    '上吧',
    '来吧',
    '行吧',
    '好吧',
    '也行',
    '安排',
    '按这个来',
    '就按你说的来',
    '那就这么办',
    '就按这个方案',
    '赞',
    '就这么着',
    '那就这么着',
    // A judgement of the proposal or a verb of doing it ("好主意", "没毛病", "就这么干").
    '好主意',
    '赞同',
    '没毛病',
    '就这么干',
  ],
  [
    'good idea',
    'agreed',
    'agree',
    'sounds good',
    'sounds right',
    'lock it in',
    "let's lock",
    'go with that',
    'go with it',
    "let's do that",
    "let's do it",
    'do it',
    'yes',
    'yep',
    'yup',
    'yeah',
    'ok',
    'okay',
    'k',
    'sure',
    'lgtm',
    'approved',
    'makes sense',
    'that works',
    'deal',
    'fine',
    'go ahead',
    'ship it',
    'yes please',
    'that one',
    'perfect',
    'great',
    'please do',
    'sounds great',
    'works for me',
    'go for it',
    'y',
    '+1',
    'do that',
    "let's go",
    'absolutely',
    'sgtm',
    'fine by me',
    'alright',
    'all right',
    'good call',
    'sold',
    'exactly',
    "that's right",
    'correct',
    'right',
    '👍',
    '👌',
    '✅',
    '💯',
    '🙆',
    'the first one',
    'the second one',
    'first one',
    'second one',
  ],
);

/** Fillers a short confirmation may carry besides its confirmation words. */
export const CONFIRMATION_FILLERS = w(
  [
    '那',
    '就',
    '吧',
    '呀',
    '啊',
    '哈',
    '哦',
    '噢',
    '呗',
    '了',
    '这样',
    '那就',
    '吧吧',
    '嘞',
    '哒',
    '啦',
    '的',
    '先',
    '方案',
    '一',
    '二',
    '第一个',
    '第二个',
    '用',
    '这个',
    '那个',
  ],
  [
    'then',
    "let's",
    'that',
    'it',
    'please',
    'thanks',
    'thank you',
    'cool',
    'nice',
    'good',
    'so',
    'go',
    'with',
    'the',
    'one',
    'plan',
    'a',
    'b',
    'just',
    'and',
    'oh',
    'ah',
    'hmm',
    'well',
    'we',
  ],
);

/** An assistant proposal a confirmation can bind to. */
export const PROPOSALS = w(
  [
    '建议',
    '推荐',
    '提议',
    '我们可以',
    '可以考虑',
    '不如',
    '要不要试试',
    '要不试试',
    '要不',
    '要不要',
    '我的建议是',
    '我倾向于',
    '倾向于',
    '方案是',
    '可以改为',
    '可以改用',
    '可以采用',
    '可以换成',
    '可以用',
    '应该用',
    '最好用',
    '我会选',
    '我选',
    '是否要',
    '要我',
    '你看要不要',
    '是否考虑',
    '考虑',
    '那我们就',
    '我们就',
    '对吗',
    '好吗',
    '可以吗',
    '行吗',
    '怎么样',
    '你看如何',
    '要不要我',
    '我倾向',
    '倾向',
    '我可以',
    '我会先',
    '建议：',
    '方案：',
    '提议：',
  ],
  [
    'i suggest',
    "i'd suggest",
    'i recommend',
    "i'd recommend",
    'i propose',
    "i'd propose",
    'my recommendation',
    'my suggestion',
    'my proposal',
    'i would propose',
    'i would suggest',
    'i would recommend',
    'we could',
    'we should',
    'how about',
    'what about',
    'shall we',
    'proposal:',
    'recommendation:',
    'suggestion:',
    "i'd go with",
    'i would go with',
    "i'd pick",
    'i would pick',
    "i'd go for",
    'i could',
    'consider',
    'recommend',
    'suggest',
    'propose',
    'should we',
    'want me to',
    'should i',
    'shall i',
    "let's",
    'the best option',
    'best option',
    'i lean towards',
    'i lean toward',
    "i'd lean",
    'one option',
    'sound good',
    'sounds good?',
    'ok?',
    'right?',
    'agreed?',
    'does that work',
  ],
);

/** Negations that cancel an act a few characters or words after them. */
export const NEGATIONS = w(
  ['不', '没', '没有', '并没有', '别', '未', '并非', '不是', '不再', '从不', '从未', '不会', '不用', '无需', '不必', '没必要', '不打算'],
  [
    'not',
    'never',
    'no longer',
    "don't",
    "didn't",
    "doesn't",
    "won't",
    "haven't",
    "hasn't",
    "wasn't",
    "weren't",
    "isn't",
    "aren't",
    'cannot',
    "can't",
    'do not',
    'did not',
    'does not',
    'will not',
    "wouldn't",
    "shouldn't",
    'no',
    'nobody',
    'no one',
  ],
);

/** Pronouns the segmenter may glue to the next word ("我不是"): they need a word boundary before them only. */
export const ZH_PRONOUNS = '我你咱他她';

/** Words that start with a negation character but negate nothing ("不同", "没错", "别的"). */
export const NOT_NEGATIONS = [
  '不同',
  '不错',
  '不少',
  '不断',
  '不仅',
  '不管',
  '不论',
  '不过',
  '不久',
  '不妨',
  '没错',
  '别的',
  '别人',
  '别处',
  '未来',
  '未必',
  '不然',
  '不如',
];

/** Suffixes that make a group of other people ("移动端团队", "客户那边"), unless "我们/咱们/本" owns them. */
export const GROUP_SUFFIXES = ['组', '团队', '部门', '小组', '那帮人', '那伙人', '那边', '公司'];

/** Past-tense verbs after "always/never": a habit in the past is a description, not a wish. */
export const EN_PAST = [
  'got',
  'had',
  'was',
  'were',
  'did',
  'went',
  'made',
  'saw',
  'knew',
  'thought',
  'said',
  'took',
  'ran',
  'wrote',
  'found',
  'felt',
  'came',
  'gave',
  'kept',
  'left',
  'built',
  'broke',
  'chose',
  'understood',
  'liked',
];

/** Words that hold a disqualifier word but mean something else ("默认假设" = assume by default, "临时文件" = temp file). */
export const NOT_DISQUALIFIERS = w(
  ['默认假设', '先假设', '都假设', '就假设', '可能性', '不确定性', '尽可能', '临时文件', '临时目录', '临时表', '临时变量', '今天的日期'],
  ['assume that', 'temporary file', 'temporary files', 'temp file', 'temp files', 'temporary table', 'temporary directory'],
);

/** A complaint beside a habit ("每次部署都要手动改配置，太麻烦了"): the habit is the pain described, not a rule asked for. */
export const COMPLAINTS = w(
  [
    '太麻烦',
    '好麻烦',
    '真麻烦',
    '很麻烦',
    '太慢',
    '好慢',
    '好烦',
    '很烦',
    '烦死',
    '受不了',
    '太难',
    '好累',
    '太蠢',
    '太坑',
    '好坑',
    '真坑',
    '头疼',
    '崩溃了',
    '心累',
    '无语',
    '太久',
    '好久',
    '太长了',
    '太费时',
    '太耗时',
    '等太久',
    '太痛苦',
    '好痛苦',
    '痛苦',
    '累死',
    '折磨',
    '太烦',
    '烦',
  ],
  ['annoying', 'painful', 'a pain', 'sucks', 'so slow', 'too slow', 'drives me crazy', 'frustrating', 'such a hassle', 'ugh'],
);

/** Words that hold a third party's name but name a thing ("客户端" is the client side, "上面的代码" the code above). */
export const NOT_PARTIES = w(
  ['客户端', '用户端', '运维平台', '运维脚本', '上面的', '上面那', '上面这', '上面说的', '产品代码', '产品环境'],
  ['they say', 'product code', 'boss fight', "boss fight's", 'boss fights', 'boss battle', 'boss level'],
);

/** Events and completed actions: 以后/之后 right after one of them is "after X" ("升级以后", "改完以后"), not "from now on". */
export const AFTER_EVENTS = w(
  [
    '完',
    '好',
    '了',
    '过',
    '掉',
    '升级',
    '上线',
    '发布',
    '部署',
    '合并',
    '合进去',
    '提交',
    '重启',
    '安装',
    '迁移',
    '改',
    '修',
    '跑',
    '测',
    '发版',
    '重构',
    '启动',
    '登录',
    '注册',
    '打包',
    '构建',
    '编译',
    '更新',
    '下班',
    '开会',
    '回来',
    '吃饭',
    '评审',
    '确认',
    '部署完',
  ],
  ['review', 'merge'],
);

/** Verbs of one's own mishaps: "I always forget {gap}" describes a habit, it asks for nothing. */
export const EN_MISHAPS = [
  'forget',
  'forgot',
  'mix',
  'confuse',
  'struggle',
  'miss',
  'lose',
  'mess',
  'screw',
  'end',
  'wonder',
  'fall',
  'trip',
  'seem',
  'get',
];

/** Pronouns that open the result clause of "every time I {gap}, they fail": what follows is behaviour. */
export const EN_RESULT_SUBJECTS = [
  'they',
  'it',
  'this',
  'that',
  'the',
  'there',
  'he',
  'she',
  'everything',
  'nothing',
  'something',
  'things',
];

/** Offers of the assistant's own work ("want me to {gap}",
  "要我{gap}吗"): a confirmation of one is a task, unless it names a project choice. */
export const OFFERS = w(
  ['要我', '要不要我', '需要我', '我来', '我可以帮你', '我可以给你', '我帮你', '我能帮你', '我可以替你'],
  ['want me to', 'should i', 'shall i', 'do you want me to', 'would you like me to', 'i can', 'like me to'],
);

/** English verbs of deciding or wanting: a sentence with one of them needs us (or no one) as its subject. */
export const EN_DECIDING = [
  'decided',
  'decides',
  'agreed',
  'agrees',
  'settled',
  'chose',
  'picked',
  'going with',
  'switching',
  'switched',
  'moved',
  'adopt',
  'adopted',
  'adopting',
  'moving to',
  'standardiz',
  'standardis',
  'migrat',
  'wants',
  'prefers',
  'use',
  'using',
];

/** Adverbs and fillers that may open an English clause before its subject. */
export const EN_OPENERS = [
  'so',
  'ok',
  'okay',
  'finally',
  'also',
  'then',
  'and',
  'but',
  'well',
  'anyway',
  'basically',
  'honestly',
  'yeah',
  'right',
  'now',
  'today',
  'recently',
  'eventually',
  'ultimately',
  'in the end',
  'after all',
];

/** The shape of a fact about the code: "这个表有 3 亿行", "The config loader reads from {gap}". */
/**
 * Shapes of a stated fact wherever its subject stands (discussion context, M-5.6): a setting or a copula with
 * a value ("… 设的是 300000", "… is 512Mi"), a passive or perfective about a thing ("被翻成了…"), a product
 * default fronted ("By default, Next.js caches …"). A sentence with discussion words is discussion whatever it holds.
 */
export const FACT_CLAUSES = [
  '(?:是|为|设的是|配的是|设成了?|设为|改成了|等于|叫)\\s*`?[-\\w.:/{}%]+`?\\s*[。.!，,；;]?$',
  '被[^，,。]{1,20}?了',
  '^by default,?\\s*(?!we\\b|i\\b|you\\b|let)[a-z][\\w.-]*\\s+[a-z]+s\\b',
];

/**
 * Shapes of a fact that count only where no first person speaks in the clause (a person's activity with the
 * same shape is discussion: "我们卡在…上了"): a resultative complement with 了 ("写死了", "查出来了"), an absence
 * ("里没有分页"), the 是…的 description ("默认是无序遍历的").
 */
export const IMPERSONAL_FACT_CLAUSES = [
  '(?:死|完|掉|成|出来|进去|错|坏|满|爆|挂)了',
  '(?:里|中|上)(?:没有|没)[^，,。]{1,16}',
  '是[^，,。]{1,20}的[。.!，,]?$',
  '(?:都|总|总是|每次都|一直)会',
  '(?:出现|发生|复现|正常|报错|失败|超时)[。.!，,]?$',
  '^(?:the|this|that|our|its)\\s+[\\w-]+(?:\\s+[\\w-]+){0,3}\\s+(?:always|never|only|usually)\\s+[a-z]+s\\b',
];

export const FACT_SHAPES = {
  zh:
    '^(?:(?:(?:默认情况下|默认)?[，,\\s]*(?:[^，,。\\s]{1,6}?的?\\s*)?`?[a-z@][\\w.-]*`?(?:\\s+[a-z][\\w.-]*){0,3}(?:\\s*(?:默认)?\\s*(?:的|里的|' +
    '里)\\s*[^，,。]{1,24}?)?(?:\\s*\\p{Script=Han}{1,4}?)?\\s*(?:默认)?\\s*(?:只|不会|会|是|为|有|叫|不支持|支持|返回|需要|没有|加在了|用了|没生效|没走|不走|走了|没|设的是|设成|' +
    '设为|配的是|配置的是))|(?:这个|那个|该|此|这些|那些|这段|这张|这条|这次)[^，,。]{1,24}?(?:了|没|不)|(?:(?:这个|那个|该|此|这些|那些|这张|' +
    '这段)[^，,。]{1,14}?|[\\w./-]+\\s*(?:里|中)(?:的[^，,。]{1,12}?)?)(?:有|是|为|用了|用的|依赖|返回|调用|继承|实现|包含|指向|监听|读取|' +
    '写入|存了|存在|写到|发到|存到|推到|转成|放到|发送到))',
  en:
    "^(?:[a-z][\\w.-]*(?:'s)?\\s+(?:[\\w.-]+\\s+){0,3}(?:defaults to|is|are|has|only|doesn't|does not|" +
    'returns|retries|supports|takes|accepts|expects|requires|needs|throws|pins|pinned)\\s|(?:the|this|' +
    'that|these|those|its|our)\\s+[\\w.-]+(?:\\s+[\\w.-]+){0,3}\\s+(?:is|are|was|has|have|uses|reads|' +
    'writes|returns|calls|stores|loads|runs|holds|contains|lives|sits|points|depends|extends|implements|' +
    'listens|sends|pushes|pulls|builds|deploys|publishes|emits|triggers|parses|validates|creates|deletes|' +
    'updates|fetches|caches|logs|retries|handles|wraps|exports|renders|compiles|generates|schedules|' +
    'spawns|starts|stops|connects|uploads|downloads|syncs|maps|converts|writes|reads)\\b)',
};

/** Particles that may follow a Chinese marker inside one segmenter word ("留了", "都要"). */
export const ZH_PARTICLES = '了着过吧啦呢嘛都也就的得地又再要呀啊哈把用能给按让';

/** Chinese answer-about-the-assistant words: a standing pattern about answers is a preference, never a project decision. */
export const ABOUT_ANSWERS = w(
  ['回答', '回复', '解释', '你', '输出', '先给', '告诉我', '提醒我', '问我', '用中文', '用英文', '总结', '给我'],
  [
    'answer',
    'answers',
    'reply',
    'replies',
    'respond',
    'response',
    'responses',
    'explain',
    'explanation',
    'you',
    'tell me',
    'remind me',
    'ask me',
    'summarize',
    'summary',
    'lead with',
    'show me',
  ],
);

/**
 * Small closed word classes the gate's grammar rules are written with. Each is used where its name says; the
 * rules themselves (positions, scopes) live in gate.ts.
 */
export const GRAMMAR = {
  /** What a Chinese descriptive marker is followed by when it describes: "总是报错", "默认会{gap}", "一直超时". */
  zhBehaviourAfter: [
    '会',
    '报错',
    '失败',
    '挂',
    '超时',
    '崩',
    '出错',
    '不稳定',
    '飘红',
    '爆红',
    '卡',
    '很慢',
    '慢',
    '红',
    '不过',
    '抛',
    '返回',
    '是',
    '为',
    '就',
  ],
  /** Failures that make any subject's "总是/每次都" a description ("总是报错"). */
  zhFailures: ['报错', '失败', '挂', '超时', '崩', '出错', '不稳定', '飘红', '爆红', '卡', '很慢', '慢', '红', '不过', '冲突'],
  /** What "每次{gap}都会" happens when it describes ("每次调用都会新建连接"). */
  zhEvents: [
    '报',
    '抛',
    '出',
    '失败',
    '超时',
    '挂',
    '打印',
    '输出',
    '提示',
    '弹',
    '新建',
    '创建',
    '重新',
    '触发',
    '生成',
    '返回',
    '多',
    '少',
  ],
  /** Verbs of spending time ("每次都要跑 40 分钟"). */
  zhDurations: ['跑', '花', '耗', '等'],
  /** Units of a duration ("每次都要 10 分钟"). */
  zhTimeUnits: ['分钟', '秒', '小时', '天', '个小时'],
  /** How an imperative starts after a fronted "默认，{gap}" ("默认，用 pnpm"). */
  zhImperativeStarts: ['用', '走', '开', '关', '给', '加', '写', '放', '按', '先', '都', '不', '别'],
  /** Words pointing at one thing: "这个服务默认监听 8080" describes it. */
  zhDemonstratives: ['这个', '那个', '该', '此', '这些', '那些', '这张', '这段', '它'],
  /** Words that put the act in the consequence of a condition ("如果 CI 挂了，就{gap}", "if {gap}, then {gap}"). */
  consequences: ['就', '那就', '都', 'then'],
  /** Clause endings that make a clause a condition ("遇到{gap}的时候"); "的话" makes the act itself conditional. */
  conditionEndings: ['的时候', '之前', '之后', '以前', '以后', '时'],
  actConditionEndings: ['的话'],
  /** Clause endings that postpone ("{gap}的时候再说", "回头再看"). */
  postponeEndings: ['再说', '再看', '再议', '再定', '再决定', '再拍板'],
  /** Right after an act, these make it a condition ("决定好了就告诉我"). */
  actConditionFollowers: ['好了就', '了就', '完就', '好就', '了以后就', '了之后就'],
  /** Acts that carry their own negation ("别再", "never"): a negation before them is not looked for. */
  prohibitiveStarts: ['别', '不', '没', 'never', 'no', "don't", 'do not', 'stop', 'quit'],
  /** Time adverbs that predict with 会 ("我们以后会有{gap}"), unless a rule word follows. */
  futureAdverbs: [
    '以后',
    '今后',
    '往后',
    '将来',
    'going forward',
    'from now on',
    'moving forward',
    'in future',
    'in the future',
    'henceforth',
  ],
  ruleWords: ['都', '一律', '必须', '要', '别', '不要'],
  /** What may stand before an English imperative ruling ("let's drop {gap}", "we'll remove {gap}"). */
  enRulingLeads: [
    'ok',
    'okay',
    'so',
    'and',
    'then',
    'just',
    "let's",
    'let us',
    "we'll",
    'we will',
    'we should',
    'we can',
    "we're going to",
    'we are going to',
    'please',
  ],
  /** Relative words before a modal make it part of a noun phrase ("anything that might break"). */
  enRelatives: ['that', 'which', 'who', 'anything', 'something', 'whatever', 'what'],
  /** Joining words of a joint act ("我们和后端组一起决定", "we and the platform team"). */
  joints: ['和', '跟', '与', '同', 'and', 'with'],
  /** Owners inside a group name ("我们项目组"). */
  groupOwners: ['我们', '咱们', '本', '我', '咱'],
  /** Words before 说/觉得 that are not a reporter ("比如说", "如果说", "我觉得"). */
  notReporters: [
    '比如',
    '如果',
    '就是',
    '也就是',
    '换句话',
    '再',
    '听',
    '据',
    '可以',
    '应该',
    '怎么',
    '这么',
    '那么',
    '来',
    'as',
    'like',
    'i',
  ],
  /** Adverbs and prepositions that may stand beside 我/我们/你 before 说/觉得 ("我一直觉得", "我跟你说"); anything else names someone else. */
  ownSubjectAdverbs: [
    '也',
    '都',
    '之前',
    '以前',
    '刚才',
    '刚刚',
    '一直',
    '其实',
    '早就',
    '已经',
    '就',
    '还',
    '又',
    '确实',
    '个人',
    '自己',
    '本人',
    '也是',
    '不是',
    '并不是',
    '是',
    '不',
    '没',
    '只是',
    '就是',
    '上周',
    '昨天',
    '上次',
    '前面',
    '前两天',
    '真的',
    '始终',
    '总',
    '老',
    '曾经',
    '今天',
    '跟',
    '对',
    '给',
    '和',
    '同',
    '向',
  ],
  /** English verbs of saying that may stand right before their speaker ("{gap}, says my manager"). */
  enReportingVerbs: ['says', 'said', 'writes', 'wrote', 'according to', 'per', 'insists', 'suggested', 'decided', 'wants'],
  /** Discourse words that may stand before the user's own 说 ("还是说一下", "再说一遍", "补充说明"). */
  speakerFillers: [
    '还是',
    '那么',
    '那',
    '就',
    '再',
    '先',
    '也',
    '顺便',
    '另外',
    '补充',
    '最后',
    '总之',
    '对了',
    '然后',
    '所以',
    '还',
    '又',
    '上周',
    '上个月',
    '昨天',
    '前天',
    '前面',
    '之前',
    '以前',
    '刚才',
    '刚刚',
    '上次',
    '早上',
    '今天',
    'hmm',
    'ok',
    'okay',
    'so',
    'well',
    '嗯',
    '哦',
    '噢',
    '呃',
    '重新',
    '再次',
    '好',
    '总结',
    '简单',
    '提前',
    '这里',
    '我再',
    '我先',
    '我就',
    '我还是',
    '我',
  ],
  /** Tails that attribute a statement to someone ("{gap}，这是老板定的"). */
  attributionTails: ['定的', '说的', '要求的', '决定的', '的要求', '的意思', '拍板的'],
  /** Before an A-not-A form, these make it no question ("不管要不要", "别问我要不要"). */
  zhNotQuestionBefore: ['不管', '无论', '不论', '别问', '不用问', '不要问', '问我', '再问'],
  /** wh-words that always ask ("为什么" is never a universal). */
  zhWhy: ['为什么', '为啥', '如何', '怎样'],
  /** After a wh-word, these make it a universal ("什么时候都{gap}"); before it, these make it no question ("没什么"). */
  zhUniversalAfter: ['都', '也'],
  zhNotWhBefore: ['没', '为', '有'],
  /** Sentence ends that are wh-words, not question particles ("用什么"). */
  zhWhEnds: ['什么', '怎么', '多少'],
  /** A negation right before a hedge cancels the hedge ("别纠结格式", "don't worry about"). */
  // ("别再纠结", "stop going back and forth": a hedge told to stop again is the matter closed.)
  hedgeNegations: [
    '别',
    '不要',
    '不用',
    '不必',
    '无需',
    "don't",
    'do not',
    'no need to',
    'never',
    '别再',
    '不要再',
    '不用再',
    '不必再',
    'stop',
    'no more',
  ],
  /** Interjections that may stand before a ruling label ("OK, final answer: {gap}", "好，结论：{gap}"). */
  // (A suggestion may lead the label: "How about a convention: …?" proposes the ruling after it.)
  labelLeads: ['ok', 'okay', 'so', 'alright', 'well', 'right', '好的', '好', '那', '那么', '行', 'how about a', 'what about a'],
  /** Words that may open an English clause before a question word ("so, what {gap}"). */
  enClauseOpeners: ['so', 'ok', 'okay', 'hey', 'hmm', 'also', 'and', 'but', 'btw', 'well'],
  /** English subjects and words around always/never. */
  enPersons: ['i', 'we', 'you', "let's", 'please', "we're", "i'm", "you're"],
  enDeterminers: ['the', 'this', 'that', 'these', 'those', 'my', 'our', 'its', 'their', 'his', 'her', 'a', 'an'],
  enWanting: ['should', 'must', 'need', 'needs', 'will', "we'll", 'shall'],
  enBe: ['is', 'are', 'was', 'were', 'be'],
  enPerfect: ['have', 'has', 'had', "i've", "we've", "they've"],
  /** How a fronted English wish goes on ("By default, use {gap}"). */
  enWishStarts: ['i', 'we', 'you', "let's", 'please', 'always', 'never', 'use', 'do', "don't"],
  /** Adverbs that may stand alone before a deciding verb ("finally decided"). */
  enLoneAdverbs: ['just', 'really', 'finally', 'already', 'also', 'officially', 'now'],
  /** Verbs of change: a decision made of one of them can be a one-off task. */
  changeVerbs: ['改', '换', '迁', '切', '删', '用', 'drop', 'remove', 'switch', 'move', 'migrate', 'use'],
  /** What follows "第一" when it counts times, days or steps, not items ("第一次", "第二天", "第三步"). */
  ordinalCounters: ['次', '天', '周', '年', '步', '版', '名', '期', '遍', '轮', '阶段', '时间'],
  /** What may follow a bare label in an answer ("B 吧", "2 可以", "A, not B", "B for now"). */
  afterItemLabel: [
    '吧',
    '就',
    '可以',
    '行',
    '也',
    '先',
    '不',
    '别',
    '暂时',
    '没问题',
    'ok',
    'is',
    'for',
    'then',
    'yes',
    'no',
    'not',
    'sounds',
    'works',
    'please',
  ],
  /** One-word confirmations that need a proposal at the end of the answer before them. */
  bareConfirmations: ['ok', 'okay', 'k', 'y', 'yes', 'yep', 'sure', 'yeah'],
  /** What may open a clause before a grammar act ("就是 @Data 别用{gap}", "but please don't {gap}"). */
  clauseLeads: [
    '就是',
    '但是',
    '但',
    '不过',
    '还有',
    '另外',
    '而且',
    '并且',
    '也',
    '就',
    '请',
    '你',
    '千万',
    '一定',
    '记得',
    '所以',
    '那',
    '那就',
    '最后',
    '先',
    '再',
    '然后',
    '都',
    'and',
    'but',
    'also',
    'so',
    'please',
    'just',
    'then',
    'and please',
    'ok',
    'okay',
  ],
  /** Subjects that make a prohibitive a statement about oneself ("I don't {gap}", "我们不要{gap}", "要不要"). */
  speakingSubjects: [
    'i',
    'we',
    "we'd",
    'they',
    'he',
    'she',
    '我',
    '我们',
    '咱们',
    '他',
    '她',
    '他们',
    '要',
    '能',
    '会',
    '可',
    '该',
    '用',
    '是',
  ],
  /** Prohibitives that open a general rule ("别用缩写", "不要自己算", "don't {gap}", "never {gap}"). */
  prohibitives: ['千万别', '千万不要', '不要', '别', '不许', '不准', '禁止', '严禁', '不能', '不用再', "don't", 'do not', 'never', 'avoid'],
  /** Imperative verbs that open an instruction ("先问我", "附上{gap}", "ask me first", "include {gap}"). */
  imperatives: [
    '直接',
    '顺便',
    '顺手',
    '顺带',
    // Verbs of telling, their delimitative 一下 a softener of a rule under a condition ("…，就说一下 X 会不会受影响").
    '说一下',
    '讲一下',
    '提一下',
    '提一句',
    '说明',
    '解释',
    '按',
    '照',
    '给',
    '先给我',
    '给我',
    '先问我',
    '先问',
    '问我',
    '告诉我',
    '提醒我',
    '先说',
    '附上',
    '加上',
    '带上',
    '给出',
    '列出',
    '标出',
    '标注',
    '注明',
    '写上',
    '先给',
    '直接给',
    '用',
    '都用',
    '统一用',
    '走',
    '先跑',
    '跑',
    '加',
    '写',
    '别',
    '不要',
    '记得',
    'ask me',
    'ask',
    'tell me',
    'include',
    'add',
    'put',
    'show',
    'give',
    'mention',
    'start with',
    'lead with',
    'end with',
    'link',
    'link to',
    'cite',
    'point me to',
    'explain',
    'estimate',
    'use',
    'run',
    'mark',
    'flag',
    'check',
    'list',
    'always',
    'never',
    "don't",
  ],
  /** Subjects of a convention of ours ("我们用{gap}", "we target {gap}"). */
  ownConventionSubjects: ['我们', '咱们', '本项目', '这个项目', '这个仓库', 'we', "we'd", "we'll", 'this repo', 'this project', 'the repo'],
  conventionModals: ['统一', '都', '一律', '只', 'should', 'always', 'only', 'must'],
  /** Verbs of a convention. */
  conventionVerbs: [
    '就是',
    '用',
    '使用',
    '采用',
    '走',
    '保持',
    '维持',
    'use',
    'target',
    'keep',
    'support',
    'require',
    'pin',
    'deploy',
    'ship',
    'run',
    'write',
    'store',
    'follow',
  ],
  /** What follows a weakener in a weakened rule ("尽量用{gap}", "最好都走{gap}", "每个回答控制在{gap}"). */
  weakRuleVerbs: [
    '都',
    '用',
    '写',
    '走',
    '控制在',
    '保持',
    '加',
    '给',
    '别',
    '不要',
    '每个',
    '所有',
    'use',
    'keep',
    'write',
    'add',
    'avoid',
    'every',
    'all',
  ],
  /** Words of a universal rule ("every service", "all new code"). */
  universals: ['every', 'all', 'each', 'any', '所有', '每个', '任何', '一律'],
  /** Words that make a "we use" a state of the code, not a convention. */
  presentState: ['现在', '目前', '当前', '用的是', '的是', 'currently', 'right now', 'at the moment', 'today', 'still'],
  /** A choice named against its alternative ("{gap}, not the H2 thing", "而不是", "rather than"). */
  contrasts: [
    '而不是',
    '而非',
    '不要用',
    '别用',
    '不用',
    '不引入',
    '不上',
    '不再',
    '不要引',
    '别引',
    ', not',
    '，不是',
    'rather than',
    'instead of',
    'not the',
    ', no',
  ],
  /** Verbs of choosing a thing to use. */
  choiceVerbs: ['用', '使用', '采用', '走', '上', '选', 'use', 'keep', 'put', 'store', 'go with', 'stick to', 'stick with', 'write'],
  /** Group-name endings that are words, not groups ("组件", "组合"). */
  notGroupEndings: ['件', '合', '成', '织', '装', '队'],
} as const;

/**
 * Closed word classes the clause-shape reader uses (shape.ts): modals, prohibitives, quantifiers, time
 * adverbs, pronouns and determiners, aspect particles. They are the grammar of a standing act, not phrases
 * of one: a rule with none of the markers above is still found by its shape.
 */
export const SHAPE = {
  /** Deontic modals: the clause says what must or should be done. */
  deontic: w(
    ['必须', '务必', '需要', '要求', '应该', '应当', '得', '都要', '要先', '都得', '只用', '只允许', '不允许', '禁止', '一定要', '统一'],
    ['must', 'have to', 'has to', 'need to', 'needs to', 'needs a', 'needs an', 'should', 'is required', 'are required', 'shall', 'only'],
  ),
  /** Prohibitives that open a clause: "别…", "不要…", "don't …", "no …". */
  prohibitive: w(
    ['别', '不要', '不许', '不准', '禁止', '千万别', '不用再', '不必再', '不再', '不引入', '不用'],
    ["don't", 'do not', 'never', 'no', 'stop', 'quit', 'avoid', 'skip'],
  ),
  /** Time scope of a standing act. */
  time: w(
    ['以后', '今后', '往后', '后面', '从现在', '从今', '默认', '每次', '每回', '一律', '统一', '始终', '总是', '永远', '平时', '一般'],
    [
      'from now on',
      'going forward',
      'by default',
      'always',
      'never',
      'every time',
      'each time',
      'whenever',
      'in general',
      'generally',
      'as a rule',
      'from here on',
      'the default',
      'rest of the time',
      'henceforth',
      'in future',
      'in the future',
      'default',
    ],
  ),
  /** Universal quantifiers and generic determiners: a rule over every thing of a kind. */
  universal: w(
    [
      '所有',
      '每个',
      '每一',
      '任何',
      '凡是',
      '全部',
      '一切',
      '通通',
      '统统',
      '全都',
      '一概',
      '新的',
      '新写',
      '新加',
      '新建',
      '新增',
      '新开',
      '新',
    ],
    ['any', 'every', 'all', 'each', 'new'],
  ),
  /** Saying it again: what the user repeats is standing ("再说一次", "说了多少次了", "as I said"). */
  repetition: w(
    [
      '再说一次',
      '再说一遍',
      '再强调一次',
      '再强调一下',
      '说了多少次',
      '说过多少次',
      '强调过',
      '说过了',
      '还是那句话',
      '依然有效',
      '仍然有效',
      '照旧有效',
    ],
    [
      'as i said',
      'i said it before',
      'i keep saying',
      'for the last time',
      'once again',
      'like i said',
      "as i've said",
      'as i mentioned',
      'still stands',
      'still holds',
      'for the second time',
      'for the third time',
      'for the nth time',
      'for the hundredth time',
    ],
  ),
  /** Condition openings of a rule ("碰到…", "if …", "when …"). */
  condition: w(['如果', '要是', '假如', '碰到', '遇到', '当', '只要', '一旦', '凡是', '若'], ['if', 'when', 'whenever', 'once', 'unless']),
  /** Commitments of the first person plural ("we'll …", "let's …") and what they may not be followed by. */
  /**
   * An exclusive closure ("…, nothing else", "只认…"): the rule admits no other case, so it ranges over every one —
   * a scope of its own.
   */
  exclusive: w(
    ['只认', '只允许', '一律只', '别的一概不', '其他一概不', '别的都不', '其他都不', '除此之外都不', '除此以外都不'],
    ['nothing else', 'no others', 'nothing but', 'exclusively', 'and no other', 'or nothing'],
  ),
  commitment: w(['我们就', '咱们就', '我们统一', '我们以后'], ["we'll", 'we will', "we're going to", 'we are going to', "let's", 'let us']),
  notCommitted: [
    'not',
    'probably',
    'maybe',
    'discuss',
    'revisit',
    'talk',
    'think',
    'see',
    'check',
    'look',
    'figure',
    'decide',
    'meet',
    'sync',
    'circle',
    'try',
    'need',
    'have',
  ],
  /** English words a bare imperative never opens with (pronouns, determiners, auxiliaries, prepositions). */
  enNotVerbs: [
    'i',
    'we',
    'you',
    'he',
    'she',
    'they',
    'it',
    'this',
    'that',
    'these',
    'those',
    'the',
    'a',
    'an',
    'my',
    'our',
    'your',
    'his',
    'her',
    'their',
    'its',
    'there',
    'here',
    'what',
    'how',
    'why',
    'which',
    'who',
    'where',
    'when',
    'if',
    'is',
    'are',
    'was',
    'were',
    'be',
    'been',
    'do',
    'does',
    'did',
    'have',
    'has',
    'had',
    'can',
    'could',
    'would',
    'will',
    'shall',
    'should',
    'may',
    'might',
    'must',
    'not',
    'so',
    'and',
    'but',
    'or',
    'to',
    'of',
    'in',
    'on',
    'at',
    'for',
    'with',
    'by',
    'from',
    'as',
    'yes',
    'ok',
    'okay',
    'thanks',
    'thank',
    'sure',
    'maybe',
    'probably',
    'great',
    'nice',
    'cool',
    'hmm',
    'oh',
    'well',
    'also',
    'then',
    'just',
    'now',
    'today',
    'yesterday',
    'some',
    'any',
    'every',
    'all',
    'each',
    'one',
    'two',
    "we're",
    "i'm",
    "you're",
    "they're",
    "it's",
    "that's",
    "there's",
    "we've",
    "i've",
    "i'd",
    "we'd",
    "i'll",
    "we'll",
    "he's",
    "she's",
    "what's",
    'got',
  ],
  /** Words before an English imperative that keep it one ("please …", "and then …"). */
  enImperativeLeads: ['please', 'pls', 'and', 'then', 'also', 'so', 'just', 'ok', 'okay', 'always', 'never'],
  /** Chinese pronouns that make a clause a statement about someone, not an instruction. */
  zhSubjects: ['我', '我们', '他', '他们', '她', '她们', '它', '它们', '你们', '大家', '咱们'],
  /** Words pointing at one thing in particular or at this moment: a task, not a rule. */
  particular: w(
    ['这个', '那个', '这段', '这里', '这次', '这一', '这两', '刚才', '现在就', '一下', '这行', '这份', '这块', '这边的', '那段', '那里'],
    ['this', 'that', 'it', 'these', 'those', 'now', 'right now', 'here'],
  ),
  /** Pronouns that, after a condition clause, point back at what the condition names ("split it"). */
  anaphoric: ['it', 'them', 'that', 'those', 'these', 'this', '它', '它们'],
  /** Copulas after a ruling label whose complement is the ruling itself ("结论是…", "decision is that …"). */
  labelCopulas: ['就是', '是', 'is that', 'is to'],
  /** Adverbs that open the main clause of a Chinese rule after its condition ("…的命令先停下来问我"). */
  consequenceAdverbs: ['先', '就', '都要', '一律', '直接', '务必', '请', '必须'],
  /** What "this" may point at and still name the whole project ("this repo"). */
  enProjectNouns: ['repo', 'project', 'codebase', 'team', 'service', 'app', 'monorepo', 'org'],
  /** Verbs of being, naming and having: a clause whose predicate they are describes, it does not instruct. */
  zhCopulas: ['是', '叫', '为', '为准', '等于', '属于', '有', '没有', '在', '像'],
  /** Modals of prediction and ability: "CI 每次都会…" says what happens. */
  zhPredictive: ['会', '能', '可能', '可以', '能够', '总会'],
  /** Aspect and copula endings of a description: "…了", "跑过", "是 X". */
  zhPerfective: ['了', '过', '着'],
  /** Resultatives of failure after a verb ("放错", "写漏", "搞反"): a mishap described. */
  zhFailureResults: ['错', '漏', '反'],
  /** Words ending in 着 that are prepositions or adverbs, not a verb's durative aspect ("照着这个写"). */
  zhNotDurative: ['照着', '跟着', '接着', '随着', '按着', '顺着', '沿着', '朝着', '对着', '冲着', '就着', '挨着', '看着办', '急着', '忙着'],
  /** English verbs of being that make a clause a description when they are its main verb. */
  enBe: ['is', 'are', 'was', 'were', "isn't", "aren't", "wasn't", "weren't"],
};

/** Acknowledgements: a turn of only these says nothing of its own to discuss ("got it, thanks", "好的，收到"). */
export const ACKNOWLEDGEMENTS = w(
  ['好', '好的', '行', '嗯', '嗯嗯', '收到', '明白', '明白了', '懂了', '了解', '谢谢', '多谢', '原来如此'],
  ['ok', 'okay', 'got it', 'thanks', 'thank you', 'thx', 'cool', 'nice', 'great', 'i see', 'makes sense'],
);

/**
 * A clause that points back at what was just said and drops it ("这个不用", "这个先 hold", "drop that",
 * "that's off the table for now"): the pointing word, then a predicate of dropping, holding or misrecording;
 * in English also a verb of dropping before the pointing word. Read in the clauses after a quote and in the
 * next turn (drops.ts).
 */
export const DROP_ANAPHORS = w(
  [
    '这个',
    '那个',
    '这条',
    '那条',
    '这事',
    '这件事',
    '那件事',
    '这点',
    '这块',
    '这一条',
    '这些',
    '刚才那条',
    '刚才那个',
    '上面那条',
    '前面那条',
  ],
  [
    'that',
    'this',
    'it',
    'that one',
    'this one',
    'that idea',
    'that part',
    'that plan',
    'that rule',
    'that bit',
    'all that',
    'the whole thing',
  ],
);
export const DROP_PREDICATES = w(
  [
    '不用',
    '不要',
    '不做',
    '不搞',
    '不上',
    '不加',
    '不改',
    '不切',
    '不算',
    '不考虑',
    '算了',
    '作废',
    '取消',
    '删掉',
    '删了',
    '去掉',
    '撤掉',
    '先放',
    '放一放',
    '放放',
    '先放着',
    '搁置',
    '先搁着',
    '先 hold',
    '免了',
    '记反',
    '记错',
    '说反',
    '说错',
  ],
  [
    'is off the table',
    "'s off the table",
    'is off',
    "'s off",
    'is out',
    "'s out",
    'is cancelled',
    'is canceled',
    'is dropped',
    'is scrapped',
    "won't happen",
    "isn't happening",
    'is not happening',
    'is on hold',
    "'s on hold",
    'can wait',
  ],
);
/** English verbs of dropping that take the pointing word as their object ("drop that", "let's scrap it"). */
export const DROP_VERBS = w(
  [],
  ['drop', 'scrap', 'skip', 'cancel', 'forget', 'ignore', 'undo', 'strike', 'shelve', 'park', 'kill', 'nix', 'ditch', 'revert', 'hold'],
);
/** Words a drop clause may open with or end on that add nothing to it ("wait", "for now", "了"). */
export const DROP_FRAME = w(
  ['等等', '等下', '等一下', '哦', '嗯', '呃', '啊', '那', '就', '也', '先', '暂时', '还是', '都', '直接', '了', '吧', '啦', '哈'],
  [
    'wait',
    'hmm',
    'oh',
    'ok',
    'okay',
    'so',
    'just',
    'then',
    'actually',
    "let's",
    'please',
    'and',
    'for now',
    'anyway',
    'after all',
    'entirely',
    'too',
  ],
);

/**
 * A sentence ending on a tag that asks to confirm a fact ("…默认实现了 equals 对吧。", "…, right?"): the
 * sentence is a question, whatever act it names.
 */
export const FACT_TAGS = w(
  ['对吧', '是吧', '没错吧', '对么', '是么', '对吗', '是吗'],
  ['right', 'correct', "isn't it", "doesn't it", "don't they", "isn't that right", 'no'],
);

/*
 * The words of the second reading (reread.ts). Its sentence shapes (anchors, the clause a word must end, what
 * may stand between two words) are patterns in code; every word they are built of is here.
 */

/** A standing scope anywhere in the sentence: an imperative under it is a rule, not a task. */
export const REREAD_STANDING_SCOPES = w(
  ['以后', '今后', '往后', '从现在', '默认', '每次', '每个', '每回', '所有', '一律', '统一', '总是', '永远', '一直', '都要', '都得'],
  ['always', 'never', 'every', 'each', 'whenever', 'any time', 'from now on', 'going forward', 'by default', 'in future', 'from here on'],
);

/** A report of the state things are in now: a perfective Chinese predicate ending the clause, an English result verb. */
export const REREAD_STATUS = w(
  ['过了', '好了', '完了', '绿了', '通过了', '跑通了', '合了', '修了', '搞定了', '完成了', '没问题了', 'ok了', '就绪了'],
  ['passed', 'pass', 'passes', 'succeeded', 'finished', 'landed', 'went through', 'is over'],
);
/** … or a state after a copula ("is green", "looks done"). */
export const REREAD_COPULAS = w([], ['is', 'are', "'s", "'re", 'looks', 'look', 'seems', 'seem']);
export const REREAD_STATES = w(
  [],
  ['green', 'done', 'ready', 'passing', 'fixed', 'merged', 'approved', 'good', 'fine', 'clean', 'through', 'in'],
);
/** What may open an imperative for now ("那就合并吧", "so ship it"). */
export const REREAD_NOW_OPENERS = w(['那', '那就', '就', '直接', '现在', '马上', '先'], ['so', 'then', 'ok', 'okay', 'alright', 'now']);
/** What opens an English clause that is no bare imperative, besides SHAPE.enNotVerbs. */
export const REREAD_NOT_VERBS = w([], ['no', 'please']);
/** An imperative's lead that keeps it bare ("let's ship it"). */
export const REREAD_IMPERATIVE_LEADS = w([], ["let's"]);

/** A reporting frame after the rule: who said it comes after ("…, said my lead", "…，这是组长说的"). */
export const REREAD_SAID_BY = w([], ['said', 'says', 'per', 'according to']);
export const REREAD_TOLD = w([], ['said', 'says', 'told me', 'told us', 'insists', 'insisted']);
/** The frame as a sentence of its own: "That's what my lead said.", "这是我们组长说的。" */
export const REREAD_FRAME_LEADS = w(['这是', '这是我们', '这个是', '这条是', '是', '听'], ["that's", 'that is', 'that was', 'this is']);
export const REREAD_FRAME_ENDS = w(
  ['说的', '讲的', '要求的', '定的规矩', '的规矩', '的习惯', '的说法'],
  ['said', 'says', 'told', 'rule', 'advice'],
);
/** Who a frame may name besides the third parties of the lexicon. */
export const REREAD_PARTY_NOUNS = w(
  [],
  ['lead', 'manager', 'boss', 'team', 'cto', 'architect', 'colleague', 'mentor', 'he', 'she', 'they'],
);
/** What takes another party's rule on for this project. */
export const REREAD_ADOPTED = w(
  ['我们也', '这边也', '这里也', '我们这儿也', '照这个来'],
  ['we do that here', 'we do the same here', 'we do it here', 'here too', 'we follow it', 'we follow that', 'and we do'],
);

/** A ruling label ("结论是", "Decision:"), a label still open ("结论待定："), a finding under a label. */
export const REREAD_LABELS = w(
  ['结论', '决定', '定了', '决议', '定论', '拍板'],
  ['decision', 'ruling', 'verdict', 'resolution', 'final call'],
);
export const REREAD_PENDING = w(['待定', '未定', '还没定', '还没出'], ['pending', 'open', 'tbd', 'to be decided']);
export const REREAD_COUNTERS = w(['个', '条', '次', '项', '处'], []);
export const REREAD_RESULTS = w(['失败', '通过', '挂', '报错', '崩', '超时'], ['failed', 'passed', 'broke', 'crashed', 'timed out']);

/** Our or this repo's present way of working: the place, the habit verb, the scope that makes it a ruling. */
export const REREAD_PLACES = w(['仓库', '项目', '代码库'], ['repo', 'repository', 'project', 'codebase', 'monorepo', 'service']);
export const REREAD_HABIT_ADVERBS = w(['都', '只', '一律', '统一'], []);
export const REREAD_HABIT_VERBS = w(['用', '使用', '采用', '走', '跑', '只用', '只走'], []);
/** Words after "we" that make no habit: modals, verbs of thinking, the past. */
export const REREAD_NOT_HABITS = w(
  [],
  ['can', 'could', 'should', 'would', 'might', 'may', 'will', 'must', 'need', 'want', 'think', 'guess', 'were', 'was', 'had'],
);
export const REREAD_SCOPES = w(
  ['只', '不用', '而不是', '不是', '这边', '这里', '别用'],
  ['here', 'in this repo', 'only', 'not', 'instead of', 'rather than', 'never'],
);
/** A practice of the past, and what says it goes on. */
export const REREAD_WAS_ONCE = w(['以前', '之前', '过去', '原来'], ['used to', 'until', 'previously', 'back then']);
export const REREAD_STILL = w(['继续', '还是', '仍然', '依然', '现在'], ['still', 'keep', 'keeping', 'stays', 'stay', 'now', 'again']);
export const REREAD_PAST = w(
  ['以前', '之前', '过去', '去年', '上个月', '原来'],
  ['used to', 'last year', 'last month', 'last week', 'last sprint', 'before', 'until', 'previously', 'back then'],
);
/** A restriction under a recurring occasion ("only … when you review", "review 的时候只看…"). */
export const REREAD_ONLY = w(['只', '就只', '仅'], ['only']);
export const REREAD_OCCASIONS = w(['的时候', '时'], ['when', 'whenever', 'every time']);

/** A rule proposed in question form: its opener or closing tag, and what makes its content a rule. */
export const REREAD_PROPOSALS = w(
  ['要不', '要不要', '不如', '咱们要不要', '我们要不要', '咱们', '我们'],
  [
    'how about',
    'what about',
    'what if we',
    'shall we',
    "why don't we",
    'should we make',
    'should we adopt',
    'should we agree',
    'should we have',
  ],
);
export const REREAD_PROPOSAL_TAGS = w(['怎么样', '如何', '好不好', '行不行', '可以吗', '好吗'], []);
/** Irregular past forms after "what if we": imagining, not proposing. */
export const REREAD_IRREGULAR_PASTS = w([], ['made', 'had', 'were', 'went', 'took', 'kept', 'ran', 'wrote', 'did', 'got']);
export const REREAD_RULE_CONTENT = w(
  ['规矩', '约定', '规范', '规则', '统一', '一律', '每个', '每次', '所有', '都要', '都得', '以后', '默认'],
  ['convention', 'rule', 'policy', 'standard', 'always', 'every', 'each', 'all', 'never', 'from now on', 'by default', 'going forward'],
);

/*
 * The words of the third reading (late-reading.ts): whole-sentence cues read after the verdict — a habit of
 * software failing, a resigned or doubting tail, a disavowal, a forwarded paste, a slip of address, a chain of
 * one-off steps, an ironic exclamation, and the clauses that keep a quote standing beside another scope.
 */

/** Predicates of software failing ("总是 OOM 退出", "always crashes"): what happens, not what should. */
export const LATE_FAILURES = w(
  [
    '崩溃',
    '崩了',
    '挂掉',
    '挂了',
    '报错',
    '超时',
    '卡死',
    '卡住',
    '退出',
    '冲突',
    '失败',
    '闪退',
    '死锁',
    // Blowing up, and a verb of fixing or running with a potential complement of failing ("修不好", "编不过").
    '炸',
    '炸了',
    '修不好',
    '修不了',
    '跑不通',
    '跑不起来',
    '编不过',
    '装不上',
    '连不上',
    '启动不了',
  ],
  [
    'oom',
    'ooms',
    'abend',
    'crash',
    'crashes',
    'crashed',
    'fails',
    'failed',
    'times out',
    'timed out',
    'hangs',
    'segfaults',
    'abends',
    'errors out',
    'throws',
    'deadlocks',
    'breaks',
    'blows up',
    'explodes',
    'never builds',
    'never passes',
  ],
);
/** Habit words a failure is read after. */
export const LATE_HABITS = w(
  ['总是', '每次', '老是', '一直', '每回', '动不动就', '永远'],
  ['always', 'every time', 'each time', 'keeps', 'forever', 'every single time'],
);
/** What makes a sentence about failures a wish after all: someone asked to act. */
export const LATE_WISH_WORDS = w(
  ['你', '提醒', '告诉我', '给我', '帮我', '要', '必须', '得', '请', '别', '不要', '记得', '以后', '先'],
  ['you', 'me', 'please', 'make sure', 'must', 'should', "don't", 'do not', 'from now on', 'going forward', 'let us', "let's"],
);
/** A clause of resignation ("习惯了", "oh well"): the sentence describes what the user puts up with. */
export const LATE_RESIGNED = w(
  ['习惯了', '认了', '随它去吧', '随它吧', '没办法', '无所谓了', '早就习惯了', '麻木了', '随缘', '随缘吧', '听天由命', '躺平了'],
  [
    'oh well',
    'whatever',
    'par for the course',
    'used to it',
    "i'm used to it",
    'such is life',
    'what can you do',
    'it is what it is',
    "it's what it is",
  ],
);
/**
 * Words that may open or close a clause of resignation and leave it one ("早就认了", "I'm used to it by now",
 * "oh well, honestly"): a time adverb of having got used, or a softener.
 */
export const LATE_RESIGNED_EDGES = {
  before: w(['早就', '早', '都', '我早就', '我早', '我都', '我也', '也'], ['honestly', 'tbh', 'meh', 'well']),
  after: w(['了', '啦', '吧', '呗'], ['by now', 'already', 'at this point', 'anyway', 'lol', 'i guess']),
};
/** Faces and gestures of exasperation. */
export const LATE_EXASPERATION = ['😩', '🙄', '😤', '😑', '🤦', '😒', '😫', '🥲'];
/** A clause avowing not knowing whether what was said is right. */
export const LATE_DOUBTS = w(
  ['不知道对不对', '不知道这样对不对', '也不知道对不对', '不确定对不对', '不知道好不好', '不知道合不合适', '不知道行不行'],
  [
    'no idea if that is right',
    "no idea if that's right",
    "no idea if it's right",
    "not sure if that's right",
    "not sure that's right",
    "not sure it's right",
    "dunno if that's right",
    "don't know if that's right",
    'no idea if that is a good idea',
    "not sure if that's a good idea",
  ],
);
/** A clause saying the matter does not concern us. */
export const LATE_DISAVOWALS = w(
  ['跟我们没关系', '和我们没关系', '与我们无关', '不关我们的事', '跟我们无关', '和我们无关', '不关我们事'],
  ['not our concern', 'not our problem', "doesn't apply to us", 'does not apply to us', 'nothing to do with us', "doesn't concern us"],
);
/** Words naming this project as the scope of a clause of its own. */
export const LATE_THIS_PROJECT = w(
  ['这里', '这边', '这个项目', '这个仓库', '这个 repo', '本项目', '我们项目', '我们这'],
  ['here', 'this repo', 'this project', 'this codebase', 'in our repo'],
);
/** A lead that forwards or pastes what follows ("转一下群公告：", "pasting the PR text:"); an English one opens its line. */
export const LATE_FORWARDING = w(
  ['转一下', '转发一下', '转个', '转一条', '转发', '贴一下', '贴个', '贴一段', '我贴一下', '复制一下'],
  ['forwarding', 'pasting', "here's the", 'here is the', 'copying'],
);
/** A line of the user's own saying the pasted rules are the user's own ("这两条是我定的"). */
export const LATE_AUTHORED = w(
  ['是我定的', '是我们定的', '是我写的', '是我们写的', '我自己定的'],
  ['i wrote these', 'i wrote this', 'we wrote these', 'we decided these', 'my own rules', 'our own rules'],
);
/** A clause saying the words were sent to the wrong person or place. */
export const LATE_MISADDRESSED = w(
  ['发错了', '发错人了', '发错群了', '发错窗口了', '不是发给你的', '不是给你的', '是发给同事的', '是给同事的', '是发给别人的'],
  ['wrong chat', 'wrong window', 'wrong thread', 'wrong tab', "wasn't meant for you", 'not meant for you', 'meant for a colleague'],
);
/** A bare word telling to pay no heed. */
export const LATE_IGNORE = w(['无视', '忽略', '忽略吧', '别理'], ['ignore', 'ignore it', 'ignore this', 'disregard']);
/** A verb of doing a thing over or once more, closing a chain of steps. */
export const LATE_REPEAT_STEPS = w(
  ['重跑', '重新跑', '再跑', '重新发布', '再发布', '重新部署', '再部署', '重新提交', '再提交'],
  ['rerun', 're-run', 'republish', 'redeploy', 'resubmit', 'rebuild', 'restart', 'retry', 'reload', 'recompile'],
);
/** A negative subject of deciding ("nobody's picked one", "还没人拍板"): nothing is decided. */
export const LATE_NOBODY = w(['没人', '还没人', '没有人', '还没有人'], ['nobody', 'no one', 'no-one']);
export const LATE_PICKING = w(
  ['拍板', '定', '决定', '选', '拍'],
  ['picked', 'decided', 'chosen', 'chose', 'settled', 'agreed', 'signed off', 'made a call', 'made the call'],
);
/** Words that make the taking on of a party's rule binding for this project. */
export const LATE_FIRMNESS = w(
  ['就照这个执行', '照这个执行', '照此执行', '就这么执行', '必须遵守', '硬性要求', '强制'],
  ['full stop', 'period', 'no exceptions', 'binding', 'a requirement', 'mandatory', 'non-negotiable', 'a hard rule'],
);
/** The user's taking on a party's rule, pointing back at it. */
export const LATE_TAKING_ON = w(
  ['就照这个', '照这个', '也一样', '也照做', '也这样', '照着来', '跟着执行'],
  ['we follow that', 'we follow it', 'treat that as', 'treat it as', 'for our', 'for us too', 'applies here'],
);
/** A verb of adopting pointing back at a party's rule ("这条我们采纳了", "adopting that"): with this project named, binding. */
export const LATE_ADOPTING = w(
  ['采纳了', '采纳', '这条采用了', '就采用这个'],
  ['adopting that', 'adopting it', 'adopting this', 'adopt that', 'adopted that', 'we adopted it'],
);
/** Words carrying an earlier project's way over to this one, and a word settling it. */
export const LATE_CARRY_OVER = w(
  ['也沿用', '也照搬', '也用这个', '也这么来', '也按这个'],
  ['same here', 'do the same here', 'the same here', 'here too'],
);
export const LATE_SETTLING = w(['定了', '就这么定', '就这么办', '就这样定'], ['settled', 'decided', "that's final", 'done deal']);
/** A marker of a wish for the future: a habit with it is asked for, not described. */
export const LATE_AHEAD = w(['以后', '今后', '往后', '从现在起'], ['from now on', 'going forward', 'in future', 'from here on']);
/**
 * A ruling noun whose existence is negated ("暂无结论", "no decision yet"): nothing is ruled. Chinese: the negation
 * right before the noun; English: the noun then a word of "so far" (a bare "no decision without review" is a rule).
 */
export const LATE_EMPTY_RULING = {
  negations: w(
    ['暂无', '尚无', '还没有', '没有', '并无', '暂时没有', '目前没有', '目前还没有', '还没', '暂时还没有'],
    ['no', 'still no', 'no real'],
  ),
  nouns: w(['结论', '定论', '决定', '决策', '共识'], ['decision', 'conclusion', 'verdict', 'consensus', 'call']),
  soFar: ['yet', 'so far', 'for now', 'at this point', 'has been made', 'was reached', 'reached'],
};
/**
 * An earlier choice named as a thing (a determiner or a time of the past before the noun) and a predicate of
 * what it brought on ("当初那个…的决定惹的祸", "that caching decision bit us again"): a complaint, no ruling.
 */
export const LATE_DECISION_MENTION = {
  determiners: w(['那个', '这个', '那次', '当初', '上次', '之前', '以前', '当时', '那条'], ['that', 'the', 'this', 'our old', 'the old']),
  nouns: w(['决定', '决策', '选择', '选型'], ['decision', 'choice', 'call']),
  consequences: w(
    ['惹的祸', '惹出来的', '导致', '造成', '害得', '害我们', '坑了', '带来的', '留下的', '的锅', '埋的坑', '埋下的'],
    [
      'caused',
      'causes',
      'bit us',
      'bites us',
      'broke',
      'is why',
      'was a mistake',
      'backfired',
      'came back to bite',
      'haunts',
      'is to blame',
    ],
  ),
};
/**
 * The speaker's own judgement of an earlier choice ("有点后悔", "I regret going with …", "that was the wrong call"):
 * the choice is what the sentence is about, not a choice made in it (late-reading.ts).
 */
export const LATE_REGRET = w(
  ['后悔', '有点悔', '遗憾', '选错了', '定错了', '没选好', '失策', '草率了', '看走眼'],
  [
    'regret',
    'regrets',
    'regretted',
    'regretting',
    "wish we hadn't",
    'wish we had not',
    'wish we never',
    'second-guessing',
    'second guessing',
    'having second thoughts',
    'was a bad call',
    'was the wrong call',
    'was the wrong choice',
    'was a mistake',
  ],
);
/** Words that put a choice back at the time it was made ("当初把配置中心选成 Apollo"): the choice judged, recounted. */
export const LATE_EARLIER_CHOICE = w(
  ['当初', '当时', '那时', '那时候', '起初', '一开始', '最开始'],
  ['back then', 'originally', 'at first', 'initially', 'in the beginning', 'at the time'],
);
/**
 * A reference back to an earlier statement ("之前说的", "上次定的", "the way we agreed last time"): an earlier time and a
 * verb of saying or deciding (late-reading.ts). What is only such a reference, with the words of pointing and of
 * doing around it, states nothing; one that a bare retraction follows takes that earlier statement back.
 */
export const LATE_BACK_REFERENCE = {
  earlier: w(
    ['之前', '上次', '上回', '以前', '早先', '先前', '原来', '刚开始', '前面', '早就'],
    ['last time', 'before', 'earlier', 'previously', 'already', 'last week', 'last sprint', 'the other day'],
  ),
  saying: w(
    ['说的', '说过的', '讲的', '讲过的', '定的', '定好的', '约定的', '商量的', '讨论的', '聊的', '说好的', '提的', '提过的'],
    ['said', 'agreed', 'agreed on', 'discussed', 'decided', 'settled', 'talked about', 'went over', 'mentioned'],
  ),
  /** The words of pointing and doing that may stand around the reference and say nothing of their own. */
  empty: w(
    [
      '就',
      '按',
      '按照',
      '依照',
      '照',
      '照着',
      '那样',
      '这样',
      '那个',
      '这个',
      '那套',
      '来',
      '做',
      '办',
      '弄',
      '写',
      '吧',
      '呗',
      '了',
      '嘛',
      '啊',
      '一样',
      '都',
      '也',
      '跟',
      '和',
      '我们',
      '咱们',
      '你',
      '的',
      '事',
      '事情',
    ],
    [
      'just',
      'do',
      'it',
      'the',
      'way',
      'we',
      'i',
      'you',
      'like',
      'as',
      'what',
      'that',
      'this',
      'one',
      'thing',
      'same',
      'please',
      "let's",
      'go',
      'with',
      'on',
      "it's",
      'ok',
      'so',
      'then',
    ],
  ),
};
/** A request not to talk an earlier matter over again ("别再问了", "don't make me repeat it") (late-reading.ts). */
export const LATE_TALK_AGAIN = w(
  ['别再问', '不要再问', '别问了', '别再提', '不要再提', '别提了', '别再说了', '别再讨论', '不用再讨论', '还要我说几遍', '要我说几遍'],
  [
    "don't make me repeat",
    'do not make me repeat',
    'stop asking',
    "don't ask again",
    "don't ask me again",
    "don't bring it up again",
    'stop bringing it up',
    'how many times do i have to',
  ],
);
/** A lead that says the rule after it is said again ("重申一下：…", "again: …", "like I said, …") (late-reading.ts). */
export const LATE_RESTATEMENT_LEADS = w(
  [
    '重申一下',
    '重申一遍',
    '再重申一下',
    '再说一遍',
    '再说一次',
    '再强调一遍',
    '再强调一次',
    '再强调一下',
    '重复一遍',
    '再重复一遍',
    '还是那句话',
    '老规矩',
    '说过了',
    '之前说过',
    '我说过',
    '跟你说过',
  ],
  [
    'again',
    'once again',
    'once more',
    'one more time',
    'saying it again',
    "i'll say it again",
    'let me say it again',
    'let me repeat',
    'to repeat',
    'repeating myself',
    'repeating myself here',
    'as i said',
    'as i said before',
    'like i said',
    'like i said before',
    'as i mentioned',
    'as mentioned',
    'as mentioned before',
    'reminder',
    'friendly reminder',
    'just a reminder',
  ],
);
/**
 * A tag after a statement that checks it is taken in ("…, got it?", "明白吗？") — the statement stands — and one
 * that asks for consent ("…，好吗？", "…, ok?") — a wish or ruling put up for agreement, held.
 */
export const LATE_TAGS = {
  heard: w(['明白吗', '明白了吗', '懂吗', '懂了吗', '听到没', '听到了吗', '记住了吗', '记住没'], ['got it', 'understood', 'capisce']),
  consent: w(
    ['好吗', '好不好', '行吗', '行不行', '可以吗', '好么', 'ok吗', '行么'],
    ['ok', 'okay', 'alright', 'deal', 'sound good', 'sounds good', 'fair'],
  ),
};
/** The user saying the statement again ("as I said", "saying it again so it sticks", "我再说一遍"): it is the user's. */
export const LATE_USER_SAYING = w(
  ['我说过', '我之前说过', '我上次说过', '我早就说过', '我再说一遍', '我再说一次', '再说一遍', '再说一次', '我讲过', '我提过'],
  [
    'as i said',
    'like i said',
    "as i've said",
    'as i mentioned',
    'saying it again',
    'saying this again',
    "i'll say it again",
    'i said it before',
    'i told you before',
  ],
);
/** A standing request pointing back at a document or a way named before it ("以后你写 X 就按它来", "follow it"). */
export const LATE_FOLLOW_BACK = w(
  ['按它来', '照它来', '按它写', '照它写', '照着它', '就按它', '就照它', '按那个来', '照那个来', '按这份来', '照这份来'],
  ['follow it', 'follow that', 'follow that one', 'stick to it', 'stick to that', 'go by it', 'go by that'],
);
/**
 * Words naming this project as the subject or place of a clause set after another project's ("这边也照这个来",
 * "This repo: same", "in this one"): the clause is this project's own.
 */
export const LATE_HERE_DEIXIS = w(
  [...LATE_THIS_PROJECT.zh, '咱们这', '咱们项目', '我们这个项目', '这个工程', '当前项目', '现在这个项目'],
  [...LATE_THIS_PROJECT.en, 'in this one', 'for this one', 'for this project', 'in this project', 'this service', 'this app'],
);
/** The nouns of a place of its own ("in the billing service", "在支付服务里"): another project, set against this one. */
export const LATE_OTHER_PLACE_NOUNS = w(
  ['服务', '项目', '仓库', '系统', '后端', '前端'],
  ['service', 'app', 'repo', 'project', 'monolith', 'backend', 'frontend', 'codebase', 'site'],
);
/** Words of someone doing a thing or of a practice ("we squashed", "都用", "习惯让你"): a way to carry over, not a state. */
export const LATE_PRACTICE = w(
  ['我们', '我', '你', '大家', '团队', '都', '一律', '统一', '习惯', '要求', '规定', '必须', '总是', '一直', '用', '把'],
  ['we', 'i', 'you', 'they', 'team', 'everyone', 'everybody', 'always', 'never', 'every', 'each', 'used', 'use'],
);
/** Words of a way carried over to the clause's place ("也一样", "照这个来", "same", "keep doing that"). */
export const LATE_CARRY_HERE = w(
  [
    ...['一样', '照这个来', '照这样', '照此', '照着来', '沿用', '照搬', '也这么', '也按', '同样', '照旧', '也这样', '也是这样'],
    // (也 before a verb of choosing: "这边也用 X".)
    ...['也用', '也走', '也采用', '也统一', '也上', '也要', '也得'],
    // (Going on with it: "这边继续用".)
    ...['继续用', '继续沿用', '接着用', '照旧用'],
  ],
  ['same', 'likewise', 'keep doing that', 'keep doing it', 'keep that', 'do that', 'do the same', 'do it that way', 'that way too'],
);
/** A back-pointer of a clause of its own ("这个项目也用 X", "X here too"): dropped when the clause is judged alone. */
export const LATE_BACK_POINTERS = w(['也', '同样'], ['too', 'as well', 'also']);
/** A verb carrying another project's way over; with this project named in its clause, the carrying is the act. */
export const LATE_CARRY_TO = w(
  ['照搬', '沿用', '搬过来', '套用', '复用', '拿过来用'],
  ['carry over', 'carried over', 'carries over', 'port over', 'bring over', 'brought over', 'applies', 'apply', 'reuse'],
);
/**
 * A part of a sentence that compares this project with another one, its model or its foil ("same as in the billing
 * service", "like we did in the mobile app", "跟上个项目一样", "这边也按老项目那样", "unlike the old repo", "不像上个项目"):
 * what may lead it (this project, "also"), the word opening the comparison, and in Chinese the word closing it
 * (a foil needs none: "不像上个项目").
 */
export const LATE_COMPARISON_FRAMES = {
  leads: w(['这边', '这里', '这个项目', '这个仓库', '本项目', '我们', '咱们', '也', '还是', '就'], ['just', 'exactly', 'and', 'so']),
  openings: w(
    ['跟', '和', '同', '与', '像', '按照', '按', '照着', '照', '参照'],
    ['the same as', 'same as', 'just like', 'like', 'as in', 'as with', 'as we did in', 'as we do in', 'similar to'],
  ),
  foils: w(['不像', '不同于', '有别于'], ['unlike', 'different from']),
  closings: ['一样', '那样', '那样子', '似的', '的做法', '的规矩', '的习惯', '的方式', '的路子', '不一样', '不同'],
};
/**
 * Words refusing to carry another project's way over ("don't carry that over", "这边别照搬"): a negation or
 * prohibitive, then within a word or two a verb of carrying.
 */
export const LATE_DECLINED_CARRY = {
  negations: w(
    ['别', '不要', '不用', '不必', '不能', '没必要', '千万别', '不'],
    ["don't", 'do not', 'never', 'not', 'no need to', "shouldn't", "won't", "let's not", 'please do not'],
  ),
  verbs: w(
    ['照搬', '沿用', '搬过来', '带过来', '带到', '套用', '复用', '拿过来', '照抄', '跟着学'],
    ['carry', 'bring', 'port', 'copy', 'reuse', 'apply', 'take'],
  ),
};
/**
 * A clause of the user's own taking up what a party was just reported to say, pointing back at it ("那我们就这么做",
 * "so that's what we'll do", "we're doing that in this repo"); what may lead it is stripped first (所以, 那, so, then).
 */
export const LATE_REPORT_TAKEN_UP = {
  leads: w(['所以', '那么', '那', '好', '行', '嗯'], ['so', 'then', 'and', 'ok', 'okay', 'alright', 'right']),
  clauses: w(
    [
      ...['就这么做', '就这么改', '就这么办', '就这样做', '就这样改', '就这样办', '就照这个做', '就照这个改', '就按这个做'],
      ...['就按这个改', '就照做', '就照着做', '就照着改', '也这么改', '也照着改', '就这么干', '就照此执行', '也这么做', '也照做'],
    ],
    [
      ...["we'll do that", 'we will do that', "that's what we'll do", "that's what we do", "we're doing that", 'we are doing that'],
      ...["we'll go with that", 'we will go with that', "we're going with that", "let's do that", "let's go with that"],
      ...["we'll follow that", "we're following that", "we'll do the same", "that's what we're doing"],
    ],
  ),
  // ("…, we're doing that in this repo", "那我们这个项目就这么做": a scope of this project may close or lead the clause.)
  subjects: w(['我们这个项目', '我们项目', '这个项目', '这个仓库', '这边', '咱们', '我们'], []),
  scopes: w([], ['here', 'in this repo', 'in this project', 'for this repo', 'for this project', 'too', 'then', 'from now on']),
};
/**
 * Conforming to a norm ("照官方文档的写法来", "import 顺序按 style guide 来", "follow the official style guide for imports"):
 * a verb of conforming, a noun naming a norm (a guide, a convention, a standard, a way of writing) as its object and,
 * in Chinese, the light verb closing the clause.
 */
export const LATE_NORM_CONFORMITY = {
  verbs: w(
    ['按照', '按', '照着', '照', '依照', '遵循', '遵照', '参照', '以'],
    ['follow', 'stick to', 'go by', 'adhere to', 'conform to', 'comply with', 'keep to'],
  ),
  norms: w(
    ['规范', '指南', '文档', '约定', '标准', '写法', '风格', '规则', '惯例', '推荐', '最佳实践', '输出', 'style guide', 'guide'],
    [
      ...['guide', 'guides', 'guideline', 'guidelines', 'style guide', 'convention', 'conventions', 'standard', 'standards', 'spec'],
      ...['specification', 'rules', 'docs', 'documentation', 'handbook', 'recommendations', 'best practices', 'naming scheme'],
    ],
  ),
  closings: ['来', '走', '写', '做', '办', '执行', '为准', '组织', '命名', '排', '格式化', '配置', '处理'],
};
/** Words of a choice made for now only ("暂时", "for now"): a provisional choice of the project, held, not refused. */
export const LATE_PROVISIONAL = w(
  ['暂时', '暂且', '这周先', '这个月先', '目前先', '眼下先', '先凑合'],
  ['for now', 'for the time being', 'for the moment', 'in the meantime'],
);
/** Words of a request for one answer or one time only: what stays a task for now, refused. */
export const LATE_ONE_TIME = w(
  ['这次', '这一次', '这个回答', '这次回答', '本次'],
  ['this time', 'this answer', 'just this once', 'for this reply'],
);
/**
 * A sentence after a description saying it is how this project works ("That's how we ship them.", "我们一直是这么做的"):
 * the description is the project's practice.
 */
export const LATE_PRACTICE_TAILS = w(
  ['我们就是这么做的', '我们一直是这么做的', '我们一直这么做', '这就是我们的做法', '这是我们的做法', '这是我们的规矩', '这是我们的惯例'],
  [
    "that's how we ship them",
    "that's how we ship it",
    "that's how we do it",
    "that's how we do it here",
    "that's how we do things here",
    "that's how we build them",
    "that's how we run it",
    "that's the way we do it",
    'that is how we do it',
    'that is how we ship them',
  ],
);
/** A party's rule taken on grudgingly or with a hedge ("which, fine, I guess we do that", "那就先这样吧"): held. */
export const LATE_GRUDGING = w(
  ['那就先这样吧', '那就这样吧', '那就这么办吧', '那就照做吧', '那就听他的吧', '行吧照做'],
  ['i guess we do that', 'we do that', 'we can do that', 'we should follow that', 'guess we follow that', 'i guess we follow it'],
);
/**
 * A clause that is only a scope of one time or one piece of work ("…, just this time", "…，就这一次"), closing the
 * sentence of the act; and the words that end such a sentence ("… this time only"): the act is for now.
 */
export const LATE_ONE_TIME_TAILS = w(
  ['这次', '这一次', '这回', '本次', '就这一次', '就这次', '只这次', '这次而已', '仅此一次', '下不为例'],
  [
    'this time',
    'just this time',
    'only this time',
    'this time only',
    'just this once',
    'this once',
    'for this answer',
    'just for this answer',
    'for this reply',
    'for this pr',
    'just for this pr',
    'for this commit',
    'just for this commit',
  ],
);
export const LATE_ONE_TIME_ENDS = w(['这次就行', '仅此一次', '就这一次'], ['this time only', 'just this once', 'only this once']);

/** The lead of a plan the assistant puts to the user ("那就用 X 替换 Y", "let's switch to X"), before a verb of PLAN_VERBS. */
export const PLAN_LEADS = w(['那就', '那我们就', '那咱们就', '那么就', '那就直接', '那就统一'], ["let's", 'let’s', 'let us']);
/** Verbs of choosing a way or a tool, after a lead of PLAN_LEADS. */
export const PLAN_VERBS = w(
  ['用', '改用', '换成', '改成', '换用', '迁到', '迁移到', '切到', '切换到', '采用', '保留', '去掉', '加上', '固定'],
  ['switch', 'move', 'go with', 'use', 'stick with', 'keep', 'drop', 'replace', 'migrate', 'adopt', 'standardize on', 'pin', 'settle on'],
);
/** "Vitest 就行", "pnpm is enough": a choice named, then an end saying it suffices — a plan put to the user. */
export const PLAN_ENDS = w(['就行', '就行了', '就可以了', '就够了', '就好'], ['is enough', 'will do', 'should do']);
/** "Two options: 1) … 2) …", "两种方案：": a plural noun of choices introducing a list of proposals. */
export const OPTION_LIST_NOUNS = w(
  ['几个方案', '两个方案', '两种方案', '几种方案', '两个选项', '几个选项'],
  ['options', 'alternatives', 'choices', 'suggestions', 'recommendations', 'proposals'],
);

/** Words that answer one part of a proposal, by clause: put off (先别, not yet), turned down (不要, no), taken (可以, yes). */
export const PART_LATER = w(
  ['先别', '先不', '暂时不', '暂时别', '以后再说', '回头再说', '晚点再', '再想想', '再看看', '考虑一下', '等等再'],
  ['not yet', 'for now', 'later', 'hold off', 'wait on', 'park', 'let me think', 'maybe'],
);
export const PART_NO = w(
  ['不要', '不用', '不行', '不做', '不改', '别', '去掉', '算了', '免了', '跳过'],
  ['no', 'not', 'nope', 'skip', 'drop', "don't", 'pass on'],
);
export const PART_YES = w(
  ['可以', '同意', '没问题', '照做', '就这么定', '行', '好'],
  ['yes', 'yep', 'yeah', 'ok', 'okay', 'sure', 'agreed', 'go ahead', 'sounds good', 'fine', 'do it', 'approved', '👍'],
);
