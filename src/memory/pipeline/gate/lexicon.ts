/**
 * The words the gate reads (M-5.3, M-5.6), as data. Nothing else in the gate holds a phrase.
 *
 * Entries are matched on NFKC + lower-cased text. An entry written with Chinese characters must start on a
 * word boundary (Intl.Segmenter, word granularity) and end on one, or be followed only by a particle; an
 * English entry matches whole words. "…" in an entry is a gap of up to a few words inside one clause, so a
 * discontinuous pattern ("每次…都", "never … again") is data too.
 */

export interface Words {
  readonly zh: readonly string[];
  readonly en: readonly string[];
}

const w = (zh: readonly string[], en: readonly string[]): Words => ({ zh, en });

/** A standing wish or rule: "from now on / by default / every time … / never … again". */
export const STANDING = w(
  ['以后', '今后', '往后', '之后都', '以后都', '从现在开始', '从现在起', '从今以后', '从今往后', '从今天开始', '从今天起', '从下周开始',
    '从这个版本开始', '从此', '默认情况下', '默认的情况下', '从下…开始', '从下…起', '从本…开始', '从本…起', '从这…开始', '从明天开始', '从明天起', '不管⋯都', '无论⋯都',
    '不论⋯都', '不管⋯也', '无论⋯也', '凡是⋯都', '所有⋯都', '只要⋯就', '一旦⋯就', '每次⋯都', '任何⋯都', '默认', '一律', '总是', '始终', '一直都', '永远', '每次…都',
    '每回…都', '每一次…都', '每个…都',
    '所有…都', '任何…都', '凡是…都', '全部…都', '无论…都', '不管…都', '不论…都', '但凡…都', '只要…就', '一旦…就', '统统',
    '请记住', '记住', '长期', '原则上', '一概', '无一例外', '千万别', '千万不要', '绝对不要', '绝不', '坚决不', '任何时候', '什么时候都', '任何时候都', '无论何时', '随时都', '谁都不',
    '谁也不', '别再', '不要再', '不许再', '不准再', '再也不要', '再也别', '后面…都', '往后…都', '今后…都', '以后…都',
    '今后都', '但凡⋯都'],
  ['from now on', 'going forward', 'moving forward', 'by default', 'always', 'never', 'in future', 'in the future',
    'from here on', 'from here on out', 'from this point on', 'henceforth', 'from today', 'starting today',
    'starting now', 'from today on', 'every time', 'each time', 'whenever', 'please remember', 'remember that',
    'remember to', 'as a rule', 'default to', 'never … again', 'no more', 'stop using', 'stop adding', 'stop writing',
    'stop putting', "don't ever", 'do not ever',
    'at all times', 'for every', 'all future', 'any time you', 'anytime you', 'every single', 'prefer … over', 'prefer … to',
    'favor … over', 'favour … over', 'as a general rule', 'without exception', 'no matter what', 'under no circumstances',
    'never ever', 'starting next', 'from the next', 'make it a rule', 'as a default', "don't … again", 'do not … again', 'no exceptions'],
);

/** "I prefer / 我比较喜欢": a wish about how things are done for this user. */
export const PREFERENCE_VERBS = w(
  ['我喜欢', '我更喜欢', '我比较喜欢', '我偏好', '我倾向于', '我倾向', '我习惯', '我希望你', '我希望', '我要求', '我的偏好', '我更倾向',
    '我偏爱', '我宁愿', '我宁可', '我更想要', '我想要你', '我一般习惯', '我一般喜欢', '我平时习惯', '我通常习惯', '我比较习惯',
    '我个人偏好', '我个人喜欢', '我受不了', '我讨厌'],
  ['i prefer', "i'd prefer", 'i would prefer', 'i like it when', 'i like', 'i want you to', 'i want', 'i do want', 'my preference',
    "i'd rather", 'i would rather', 'i much prefer', 'i really prefer', 'please always', "i'd like you to", 'i would like you to',
    'i expect you to', 'i need you to always', "i can't stand", 'i hate it when'],
);

/** "we decided / adopt / switch to …": a project choice. */
export const DECISION = w(
  ['决定', '采用', '改为', '改用', '换成', '改成', '最终用', '最终选', '最终定', '就选', '那就定', '那就用', '那就选', '那就上', '选了', '定了', '定下来', '确定用', '确定使用',
    '确定采用', '统一使用', '统一用',
    '统一采用', '统一成', '统一为', '回到', '还是用', '退回到', '改回', '我们的约定是', '规矩是', '惯例是', '达成共识', '共识是', '不再讨论', '不讨论了', '别再讨论了', '就按…来', '方案定为', '选型定了', '统一改成',
    '统一走', '就用', '选用', '选定', '敲定', '拍板', '决议', '约定', '迁到', '迁移到',
    '切到', '切换到', '迁移至', '就定', '就这么定', '用…吧', '上…吧', '废弃', '弃用', '不再支持', '不再维护', '下线', '下掉', '就这么着', '那就这么着', '就这么办', '就这么干', '就这么搞', '就这样干', '那就…吧', '不考虑了'],
  ['we decided', "we've decided", 'we have decided', 'i decided', "i've decided", 'decided to', 'decided on',
    'decision is', 'we will use', "we'll use", 'we will adopt', "let's go with", "let's use", 'go with', 'adopt', 'made the call', 'my call is', "it's decided", 'go back to',
    'adopting', 'switch to', 'switching to', "we're switching", 'we are switching', 'standardize on', 'standardise on',
    'the project will use', 'this project will', 'the project will', 'this repo will', 'the repo will', 'our project will',
    'this codebase will', 'this service will', 'we are going with', "we're going with", 'final decision', 'settled on',
    'agreed to use',
    'we agreed', 'we will standardize', "let's stick with", 'stick with', "we're moving to", 'we are moving to',
    'migrate to', "we'll migrate", 'we will migrate', 'going with', 'switch … to', 'move … to', 'migrate … to', 'convert … to',
    'moved … to', 'switched to', "let's do the … thing", "let's do the … approach", "let's do the … option", "let's do the … plan",
    "let's do the … one", "let's go with the … one",
    'migrated … to', 'we moved', 'we switched', "we've switched", "we've moved", 'we migrated', "we've migrated",
    "we're dropping", 'we are dropping', "let's drop", "we'll drop",
    "let's move to", "we're going to use", 'we are going to use', 'is deprecated', 'are deprecated', "let's standardize",
    'no longer support', 'we no longer', 'will no longer', 'our convention is', 'the convention is', 'our rule is', 'the rule is',
    'our policy is', 'the policy is', 'house rule', 'we standardized on', 'we standardised on', "we've settled on",
    'we settled on',
    "we've standardized on", 'we went with', "we've gone with", 'standardizing on', 'standardising on', "we're migrating to",
    'we are migrating to', "we're adopting", 'we are adopting', "we're moving off", 'we are moving off',
    'we reached consensus', 'end of discussion', 'case closed', 'no more discussion', 'the consensus is', 'is our standard',
    'is the standard', 'we will be using', "we'll be using", 'the plan is to', "we've agreed", 'we have agreed', 'agreed to', "let's keep", "we'll keep", "let's stay on", 'stay on', 'stick to', "we're keeping", 'we are keeping'],
);

/** "Decision: …", "结论：…": a labelled ruling at the start of a sentence. */
export const RULING_LABELS = w(
  ['结论', '决定', '决议', '规定', '规则', '约定', '最终方案', '定论', '最终决定', '拍板', '已决定', '定了', '定个规矩', '规矩', '定个规则', '定一下'],
  ['decision', 'final call', 'final decision', 'rule', 'ruling', 'policy', 'convention', 'verdict', 'resolution',
    'team decision', 'adr', 'decided', 'agreed', 'settled', 'final answer', 'rule of thumb', 'house rule', 'guideline', 'team rule', 'standard'],
);

/** An imperative ruling about this project: "不用留了，直接删", "drop support for …". Decisions only. */
export const RULING_VERBS = w(
  ['统一', '不用留', '不需要留', '不用保留', '不再保留', '不保留', '别留', '不要留', '不用兼容', '不再兼容', '直接删', '直接删除', '直接删掉',
    '直接去掉', '直接干掉', '直接移除', '直接下掉', '全删', '全部删', '都删', '都删掉', '删掉吧', '删了吧', '干掉', '砍掉', '去掉吧',
    '都改成', '全部改成', '都换成', '全部换成', '一律改成', '都用', '全用', '只用', '只允许', '禁止', '不允许', '不许', '不准', '严禁',
    '必须', '务必', '一定要'],
  ['drop', 'remove', 'delete', 'kill', 'rip out', 'get rid of', 'deprecate', 'sunset', 'retire', 'ban', 'forbid', 'scrap', 'ditch',
    'abandon', 'must', 'must not', "mustn't", 'only use', 'use … everywhere', 'use … only', 'is required', 'are required',
    'is not allowed', 'are not allowed', 'is forbidden', 'are forbidden', 'nobody', 'no one'],
);

/** A one-off request frame ("帮我…", "can you …"): an imperative that is a task, not a ruling. */
export const REQUEST_FRAMES = w(
  ['帮我', '帮忙', '麻烦你', '麻烦', '给我', '你能', '能不能', '可以帮', '请帮', '顺手', '顺便', '现在就', '马上'],
  ['can you', 'could you', 'would you', 'help me', 'for me', 'please', 'right now', 'quickly', 'real quick'],
);

/** Who may own a standing wish or ruling: the user, we / this team, this project. */
export const OWN_SUBJECTS = w(
  ['我', '我们', '咱们', '咱', '你', '大家', '本项目', '这个项目', '我们项目', '这个仓库', '本仓库', '我们组', '我们团队', '本组',
    '这个 repo', '这个repo', '咱们组', '本团队'],
  ['i', 'we', "we're", "we'll", "we've", 'us', 'our', 'you', 'this repo', 'this project', 'this codebase', 'the project',
    'the repo', 'our team', 'this team', 'the team', "let's", 'everyone', 'everybody'],
);

/** Someone else's act: colleagues, other teams, vendors. */
export const THIRD_PARTIES = w(
  ['同事', '他们', '她们', '他', '她', '后端组', '前端组', '测试组', '运维组', '架构组', '安全组', '平台组', '数据组', '老大', '我老大', '头儿', '安全团队', 'leader', '我们 leader', '我们leader', '后端那边',
    '前端那边', '隔壁', '别的组', '别的团队', '其他组', '其他团队', '另一个团队', '客户', '甲方', '产品经理', '老板', '领导', '组长',
    '主管', '经理', '架构师', '总监', '有人', '别人', '社区', '官方', '上游', '网友', '朋友', '室友', '那个组',
    '他们组', '他们团队', '某些人', '同学', '运维', 'dba', '测试同学', '产品同学', '上面', '上头', '公司要求', '甲方爸爸', '对方', '对方公司', '合作方', '友商', '竞品'],
  ['my teammate', 'my teammates', 'my colleague', 'my colleagues', 'my coworker', 'my coworkers', 'my manager', 'my boss',
    'my lead', 'my tech lead', 'my team lead', 'our cto', 'the cto', 'our architect', 'the architect', 'the platform team',
    'the backend team', 'the frontend team', 'the infra team', 'the security team', 'the data team', 'the sre team',
    'the qa team', 'another team', 'other teams', 'the … team', 'the … teams', 'the … squad', 'the … org', 'the … group',
    'the … department', 'another … team', 'the other team', 'they', 'he', 'she', 'someone', 'somebody',
    'people', 'the client', 'the customer', 'the vendor', 'upstream', 'the maintainers', 'the community', 'a friend',
    'my friend', 'the team next door', 'their team', 'some teams', 'many teams', 'most teams', 'a lot of teams',
    'the ops team', 'the devops team', 'product', 'the pm', 'our pm', 'management', 'legal', 'the reviewer', 'ops', 'the dba',
    'the sre', 'folks', 'the … folks', 'the … guys', 'the company', 'the business', 'stakeholders', 'compliance', 'tech lead', 'team lead', 'our tech lead',
    'our team lead', 'our lead', 'our manager', 'our architect', 'pm', 'po', 'qa', 'cto', 'ceo', 'vp', 'tl', 'boss', 'investors', 'our investors', 'the board', 'leadership', 'our customers', 'customers', 'our users', 'devs', 'the … devs', 'senior devs', 'engineers', 'the … engineers'],
);

/** Another or an earlier project, or the past: not this project's ruling. */
export const OTHER_PROJECTS = w(
  ['上个项目', '上一个项目', '之前的项目', '以前的项目', '老项目', '另一个项目', '别的项目', '其他项目', '另一个仓库', '另一个 repo',
    '别的 repo', '别的仓库', '老东家', '上家公司', '前公司', '以前公司', '之前公司', '上一家', '去年', '前年', '当时', '那时候', '那时',
    '那会儿', '那会', '以前我们', '之前我们', '以前在', '之前在', '原来的项目', '老系统', '之前那个', '以前的…公司', '以前的…项目',
    '之前的…公司', '之前的…项目', '以前的…团队', '之前的…团队', '上家', '老公司', '前东家', '那个…项目', '那个…仓库', '那个…公司', '那个…团队', '之前那家', '那家公司', '之前…公司', '以前…公司', '个人项目', '私人项目', '自己的项目', '人家的…项目', '别人的…项目'],
  ['side project', 'my side project', 'personal project', 'my personal project', 'my last project', 'my previous project', 'my old project', 'previous project', 'last project', 'another project',
    'other project', 'another repo', 'other repo', 'another codebase', 'my last job', 'my previous job', 'my old job',
    'my old company', 'my previous company', 'at my last', 'at my old', 'at my previous', 'last year', 'years ago',
    'back then', 'back when', 'at the time', 'in the old', 'used to', 'at google', 'at amazon', 'at meta',
    'in a previous', 'in my previous', 'in my last', 'the legacy project', 'that … project', 'that … repo', 'other … project', 'their … project'],
);

/** "X 说 / according to / X wrote:": reported speech. */
export const REPORTING = w(
  ['说', '讲', '提到', '表示', '写道', '说过', '听说', '据说', '据', '按照', '转述', '在群里说', '群里说', '发消息说', '邮件里说',
    '文档里说', '文档上说', '文档写着', '告诉我', '跟我说', '通知说', '认为', '觉得', '建议', '要求'],
  ['said', 'says', 'saying', 'wrote', 'writes', 'mentioned', 'told me', 'told us', 'suggested', 'wants', 'insists', 'decided',
    'thinks', 'believes', 'claims', 'announced', 'posted', 'argued', 'insisted', 'the docs say', 'the readme says',
    'quote', 'want us to', 'wants us to', 'asked us to', 'told us to', 'requires us to', 'require us to', 'expects us to', 'expect us to'],
);

/** A frame that reports someone else's words on its own ("听说", "according to"). */
export const REPORTING_FRAMES = w(
  ['我在网上看到', '网上看到', '看到有人说', '有文章说', '我看到一篇', '听说', '据说', '据…说', '按照…的说法', '按…的说法', '文档里说', '文档上说', '文档写着', '官方说', '传闻', '网上说', '有人说', '都说',
    '大家都说', '人家说', '网上都说', '很多人说', '好多人说'],
  ['according to', 'as per', 'per my', 'per the', 'the docs say', 'the readme says', 'the docs said', 'it says', 'rumor has it',
    'apparently', 'i heard', 'i read that', 'i read … that', 'i read somewhere', 'i saw somewhere', 'i heard somewhere', 'word is', 'the … says', 'the … said', 'the … recommends', 'the … states',
    'the … requires'],
);

/** This answer only. */
export const TEMPORARY = w(
  ['这次', '这一次', '本次', '这回', '暂时', '临时', '先这样', '这个回答', '这条回答', '仅此一次', '只这一次', '只是这次', '今天先',
    '目前先', '这一轮', '今天', '这会儿', '眼下', '先不', '先别', '待会儿', '待会', '一会儿', '这周', '本周', '这个月', '今晚', '这两天', '这个 sprint', '这个sprint',
    '这个迭代', '本迭代', '这期', '这个版本先', '休假', '请假', '出差', '一周', '两周', '几天', '两天', '三天', '一个月', '这几天', '这个 pr', '这个pr', '这个 commit',
    '这次的', '这一版', '这一个'],
  ['for this answer', 'just this time', 'this time', 'for now', 'just for now', 'for this one', 'just for this', 'only this once',
    'this once', 'temporarily', 'for this question', 'for this reply', 'in this answer', 'for the moment', 'for this response',
    'just here', 'for today', 'today', 'right now', 'for this pr', 'in this pr', 'for this commit', 'this one time',
    'for this task', 'for this ticket', 'for this file', 'for the demo', 'until friday', 'until the release', 'this sprint',
    'this week', 'tonight', 'this month', 'for two weeks', 'for a week', 'for a few days', 'on vacation', 'on leave',
    'out of office', 'for the hackathon', 'for the prototype', 'for the spike', 'for the poc'],
);

/** A hypothetical anywhere in the sentence. */
export const HYPOTHETICAL = w(
  ['假设', '假如', '万一', '倘若', '假使', '设想', '如果说', '要是说', '想象一下', '打个比方', '理想情况下', '最好能', '要是能', '如果能'],
  ['what if', 'hypothetically', 'suppose', 'supposing', 'imagine', 'were we to', "let's say", 'lets say', 'would it be',
    'in theory', 'in a world where', 'if we were to', 'if i were', 'in an ideal world', 'would be nice',
    'it would be great if'],
);

/** A conditional opening a clause: an act inside it is hypothetical, a condition beside a rule is not. */
export const CONDITIONAL_OPENINGS = w(['如果', '要是', '若是', '若', '假若', '如若'], ['if', 'in case', 'assuming', 'provided that']);

/** An example, when it opens the clause or sentence ("比如…", "for example: …"). */
export const EXAMPLE_OPENINGS = w(
  ['例如', '比如', '比如说', '举个例子', '举例', '举例来说', '譬如', '打个比方', '像是'],
  ['for example', 'e.g.', 'eg', 'for instance', 'as an example', 'example', 'an example', 'say'],
);

/** Not decided yet. */
export const UNDECIDED = w(
  ['还没…对齐', '还没对齐', '没对齐', '还没同步', '还没…商量', '还没决定', '尚未决定', '没决定', '未决定', '还没定', '没定', '还在考虑', '考虑一下', '再看看', '再想想', '待定', '不确定', '也许',
    '或许', '犹豫', '还在比较', '还在讨论', '不一定', '还没想好', '没想好', '拿不准', '纠结', '还在评估', '回头再说', '再议', '看情况',
    '到时候再说', '还没拍板', '再商量', '先讨论', '想一想', '以后再说', '以后再看', '之后再说', '再说吧', '时候再说', '后面再说', '再决定', '再定', '可以考虑', '或许可以',
    '也许可以',
    '先别改', '先别动', '先不改', '试试看', '先试试', '试一下', '试一试', '晚点再', '下次再', '过段时间', '之后再换', '之后再改', '以后再换', '本来打算', '原本想', '原来想', '本想', '要等', '等下个月', '等下周', '下个月再', '等发版', '有朝一日', '有机会', '以后有机会', '希望有一天', '打算', '说不好', '说不准', '谁知道', '不好说', '难说'],
  ['have not decided', "haven't decided", 'not decided', 'undecided', 'yet', 'we could', 'we might', 'at some point', 'not now',
    'not right now', 'maybe later', 'some other time', 'another time', 'revisit', 'not this year', 'not this quarter',
    'but not yet',
    'try it out first', "i'll try", 'let me try', 'not sure', 'maybe', 'considering', 'thinking about',
    "we'll see", 'tbd', 'to be decided', 'not yet decided', 'still deciding', 'perhaps', 'not certain', 'unsure',
    "haven't made up", 'not settled', 'open question', 'on the fence', 'torn between', 'still evaluating', 'up in the air',
    'let me think', 'need to think', 'not convinced', 'revisit later', 'to be discussed', 'tbc', 'pending discussion', 'were going to', 'was going to', 'pushed back', 'fell through', 'got rejected', 'was rejected', 'someday', 'one day', "i'd like to", 'i would like to', 'it would be nice to', 'hopefully'],
);

/** Speculation about what may happen. */
export const SPECULATION = w(
  ['我猜', '估计', '大概', '说不定', '迟早', '早晚', '可能', '应该会', '恐怕', '没准', '八成', '多半', '兴许', '我觉得以后', '看样子'],
  ['i bet', 'i guess', 'probably', 'i suspect', 'likely', 'sooner or later', 'eventually', 'might', 'may end up',
    'chances are', 'my guess', 'i imagine', 'presumably', 'i expect', 'odds are', 'could end up', 'i predict'],
);

/** An answer that turns a proposal down, at the start of a turn ("不，…", "no, …", "不行"). */
export const REFUSALS = w(
  ['不', '不要', '不行', '不用', '别', '不好', '不可以', '不同意', '否', '还是别', '别用', '不要用', '不考虑', '等等', '等一下'],
  ['no', 'nope', "don't", 'do not', 'wait', 'hold on', 'not that', 'no way', "let's not", 'i disagree', 'disagree'],
);

/** Polite requests in question form, addressed to the assistant: a standing wish asked, not a question about one. */
export const POLITE_REQUESTS = w(
  ['能不能', '可不可以', '能否', '可否', '你能', '你可以', '麻烦你', '麻烦', '请你', '能…吗', '可以…吗', '能…么', '可以…么', '行不行', '好吗', '好不好',
    '可以吗', '是不是可以', '行吗', '可以吧', '你觉得可以吧', '你要不要', '要不你'],
  ['shall we', 'could we', 'can we', 'could we agree', 'shall we agree', 'could you', 'can you', 'would you', 'will you', 'would you mind', 'could you please', 'can you please', 'would you please', 'you could',
    'is it possible to', 'would it be possible to'],
);

/** Words that weaken a wish: it holds "if possible", not always (M-5.7 suggests instead of accepting). */
export const WEAKENERS = w(
  ['能…就', '一般来说', '尽量', '尽可能', '如果可以', '可以的话', '方便的话', '有空的话', '能的话', '争取', '适当', '酌情', '视情况', '大部分情况下', '多数情况下', '一般来说'],
  ['if possible', 'where possible', 'when possible', 'whenever possible', 'try to', 'preferably', 'ideally', "if that's not too painful",
    'if it is not too painful', 'if you can', 'when you can',
    'as much as possible', 'where it makes sense', 'when it makes sense', 'where feasible', 'if feasible', 'most of the time',
    'when practical', 'where practical', 'if it is not too much trouble', 'if convenient'],
);

/** Markers of sarcasm: the words may say the opposite of what is meant. */
export const SARCASM = w(
  ['行行行', '好好好', '是是是', '多方便啊', '多好啊', '多省事', '多简单', '最喜欢…了', '出了事再说', '反正', '呵呵', '真是太好了', '好棒棒', '真棒啊', '太棒了呢', '可真行', '服了', '🙄', '又来了', '反正也没人', '反正没人', '反正也没', '反正用户会', '对对对', '😅', '🙃', '🤡',
    '不管了', '随便你', '随你', '爱怎么', '想怎么…就怎么'],
  ['by all means', 'nothing but time', "that'll speed things up", "that'll help", "that'll be fun", 'yeah yeah', 'yeah right', 'oh great', 'oh sure', 'because that worked so well', 'what could go wrong', 'said no one ever', '/s', '🙄', '🙃', '😅',
    "i'm sure … will love it", 'what could possibly go wrong', 'whatever you want', 'i give up', 'genius idea',
    'sure, why not', 'as if'],
);

/** A correction of what the user said before: the restated rule is held for the user (M-5.7). */
export const CORRECTIONS = w(['纠正一下', '更正一下', '更正', '纠正', '我是说', '我说的是', '我的意思是', '准确地说', '说错了', '我刚才是说', '不对，'],
  ['correction:', 'to correct myself', 'i mean', 'i meant', 'sorry, i meant', 'let me correct', 'to clarify', 'what i meant']);

/** A party's rule taken on by this project ("我们这个项目也得跟", "we'll follow that"). */
export const ADOPTIONS = w(['也得跟', '也要跟', '也跟', '也照做', '照做', '也得遵守', '也要遵守', '遵守', '跟着做', '也这么做', '也按这个'],
  ["we'll follow", 'we will follow', 'we have to follow', 'we follow', 'we comply', 'applies to us', 'we go along', "we're adopting it",
    'we adopt it', 'we are following', "we're following"]);

/** Typo'd forms of the commonest standing markers, matched like them ("form now on", "以侯"). */
export const TYPO_SOURCES = w(['以后', '今后', '默认', '以后都'], ['from now on', 'going forward', 'by default', 'always', 'never', 'every time',
  'in the future', 'moving forward', 'going fwd', 'from now']);

/** Names of a proposal, judged by a confirmation ("这个思路好", "that approach works"). */
export const PROPOSAL_NOUNS = w(['思路', '方案', '办法', '做法', '想法', '建议', '主意', '这样', '设计'], ['approach', 'plan', 'idea', 'option',
  'suggestion', 'way', 'design', 'proposal']);

/** A part of a proposal a confirmation may name ("第一点同意", "the first point sounds good"). */
export const PROPOSAL_PARTS = w(['第一点', '第二点', '第三点', '第一条', '第二条', '前两条', '前三条', '前三点', '前两个', '前半部分', '后半部分', '第一个', '第二个', '前面那个', '前两点'],
  ['the first point', 'the second point', 'the first part', 'the second part', 'point one', 'point two', 'part one', 'the first one']);

/** Words pointing back at the proposal a confirmation takes ("go ahead with the layout you proposed", "按这个来"). */
export const PROPOSAL_REFERENCES = w(['你说的', '你提的', '你建议的', '按这个', '就按这个', '照这个', '照你说的', '这个方案', '这么办'], ['you proposed',
  'you suggested', 'you described', 'you outlined', 'that way', 'as you said', 'as proposed', 'as suggested']);

/** What extends a confirmed proposal into a rule ("make it the standard", "any new client", "都按这个来"). */
export const EXTENSIONS = w(['都按', '都照', '标准', '规范', '以后都', '统一', '约定'], ['the standard', 'any new', 'every new', 'all new', 'the default',
  'the convention', 'the rule', 'our standard',
  'from now on', 'going forward', 'everywhere']);

/** Words pointing at one thing in particular: a rule about it is a one-off task. */
export const DEICTICS = w(['这个', '那个', '这里', '那里', '这段', '这行', '这次', '这儿', '上面的', '下面的'], ['this', 'these', 'those', 'there']);

/** The scope of this project ("这个仓库里", "in this repo", "here"). */
export const PROJECT_SCOPES = w(['我们这里', '咱们这里', '我们这边', '这个仓库', '本仓库', '这个项目', '本项目', '我们项目', '项目里', '仓库里', '这个 repo', '这个repo'], ['in this repo',
  'in this project', 'in this codebase', 'here', 'for this repo', 'for this project', 'across the repo', 'across the codebase']);

/** A topic of answers an instruction may follow ("回答里…，附上…", "in your answers, …"). */
export const ANSWER_TOPICS = w(['回答里', '回答中', '回答时', '回答的时候', '回复里', '回复时', '解释的时候', '写代码的时候', '给代码的时候', '贴代码的时候'],
  ['in your answers', 'in answers', 'when you answer', 'in your replies', 'when you reply', 'when you explain', 'in code examples']);

/** Retractions that hold something back from the Memory ("先别记", "don't save that"): they count anywhere in a later turn. */
export const MEMORY_HOLDS = w(['先别记', '别记', '不要记', '别记下来', '先不记', '先别定', '我再想想', '说了不算', '我说了不算'], ["don't save that",
  "don't remember that", "don't record that", 'do not save that', "don't write that down", 'hold off on that']);

/** Words that cancel the statement before them. */
export const RETRACTIONS = w(
  ['算了', '当我没说', '不对', '撤回', '收回', '忘了吧', '别管了', '刚才说错了', '说错了', '不用了', '还是算了', '不要了', '作罢', '先别记', '别记', '不要记',
    '先别定', '别记下来', '先不记', '开玩笑的', '开个玩笑', '我再想想', '说了不算', '我说了不算',
    '我收回', '划掉', '没事了', '当没说'],
  ['scratch that', 'never mind', 'nevermind', 'forget it', 'forget that', 'forget what i said', 'ignore that',
    'ignore what i said', 'forget what i just said', 'forget about that',
    'disregard that', 'i take that back', 'take that back', 'on second thought', 'actually no', 'actually, no', 'wait no',
    'nah', 'not anymore', 'strike that', 'cancel that', 'my bad', 'just kidding', 'jk', 'kidding', "don't save that", "don't remember that", "don't record that", 'do not save that',
    "don't write that down", 'hold off on that'],
);

/** A tag question right after a statement turns it into a question ("…，你觉得呢？"). */
export const TAG_QUESTIONS = w(
  ['你觉得呢', '你觉得怎么样', '怎么样', '行吗', '可以吗', '好吗', '对吧', '如何', '行不行', '好不好', '可不可以', '你看呢', '合适吗', '有问题吗'],
  ['what do you think', 'thoughts', 'right', 'ok', 'okay', 'sound good', 'sounds good', 'agree', 'make sense', 'any objections',
    'does that work', 'wdyt', 'yes or no'],
);

/** Chinese question signals besides the question mark. */
export const ZH_QUESTION = {
  /** Sentence-final particles. */
  finals: ['吗', '么', '呢'],
  /** A-not-A questions. */
  aNotA: ['要不要', '是不是', '能不能', '可不可以', '好不好', '行不行', '对不对', '有没有', '该不该', '会不会', '用不用', '需不需要',
    '应不应该', '值不值得', '合不合适', '算不算', '是否'],
  /** wh-words; a wh-word after 不管/无论 or before 都 is a universal, not a question. */
  wh: ['为什么', '为啥', '怎么', '怎样', '如何', '哪个', '哪些', '哪种', '哪里', '什么', '什么时候', '啥时候', '多少', '多久', '谁', '啥',
  ],
  universals: ['不管', '无论', '不论', '任何', '都'],
  /** Indirect questions. */
  indirect: ['我想知道', '我想问', '我在想', '想问一下', '不知道', '好奇', '请教', '想确认', '确认一下', '有没有必要', '是否需要'],
};

/** English question signals besides the question mark. */
export const EN_QUESTION = {
  /** An auxiliary opening a sentence is a question when a subject follows it ("should we …", not "do use …"). */
  auxiliaries: ['should', 'shall', 'could', 'would', 'can', 'do', 'does', 'did', 'is', 'are', 'will', 'may', 'might', 'have',
    'has',
    'was', 'were', "isn't", "aren't", "don't", "doesn't", "shouldn't", "wouldn't", "can't", "won't"],
  subjects: ['we', 'you', 'i', 'it', 'they', 'this', 'that', 'these', 'those', 'the', 'our', 'there', 'he', 'she', 'anyone',
    'anybody',
    'someone', 'everyone', 'all', 'a', 'an', 'my', 'your'],
  wh: ['what', "what's", 'whats', 'why', "why's", 'how', "how's", 'which', 'who', 'whose', 'whom', 'wanna', 'any'],
  /** "when/where" open a question only with an auxiliary after them; otherwise they open a condition. */
  conditionalWh: ['when', 'where'],
  indirect: ["i'm wondering", 'i am wondering', 'i wonder', 'wondering whether', 'wondering if', "i'm curious", 'curious whether',
    'curious if', 'do you think', 'not sure whether', 'not sure if', 'any thoughts', 'any idea', 'is it worth', 'is there a',
    'i was wondering', 'i want to know', 'can you tell me', 'let me know whether', 'let me know if', 'quick question',
    'question:', 'does anyone', 'what do you think', 'should we', 'would it make sense', 'does it make sense', 'thoughts on'],
};

/** A clause that states a condition of a rule ("when you're unsure …", "遇到…的时候"): markers inside it are not the act. */
export const CONDITION_OPENINGS = w(
  ['如果', '要是', '若', '当', '遇到', '碰到', '每当', '只要', '一旦', '凡是', '在', '每次'],
  ['if', 'when', 'whenever', 'once', 'unless', 'in case', 'where', 'wherever', 'before', 'after', 'until', 'while', 'for any',
    'for every', 'any time', 'anytime'],
);

/** A thing right here, not the project: a ruling about it is a one-off task. */
export const LOCAL_OBJECTS = w(
  ['这行', '这一行', '那一行', '这个函数', '这个方法', '这个变量', '这个文件', '这个类', '这个参数', '这个 import', '这个typo', '这个 typo',
    '这段', '这段代码', '这里', '那里', '上面那段', '这个 bug', '这个bug', '这两行', '这几行', '这个注释'],
  ['this line', 'that line', 'these lines', 'this function', 'this method', 'this variable', 'this file', 'this class',
    'this param', 'this parameter', 'this import', 'that import', 'the typo', 'this typo', 'this snippet', 'this block',
    'this bug', 'this comment', 'line'],
);

/** Words that make a decision explicit, so a request frame around it does not make it a task. */
export const EXPLICIT_DECISION = w(
  ['决定', '定了', '敲定', '拍板', '最终', '结论', '决议', '约定'],
  ['decided', 'decision', 'final', 'settled', 'agreed', 'ruling', 'policy'],
);

/** English ruling verbs that must open their clause (an imperative), after at most "let's / we'll / just". */
export const IMPERATIVE_RULINGS = w(
  [],
  ['drop', 'remove', 'delete', 'kill', 'rip out', 'get rid of', 'deprecate', 'sunset', 'retire', 'ban', 'forbid', 'only use', 'scrap',
    'ditch', 'abandon', 'revert'],
);

/** Verbs of telling or checking: a question after them is their object ("说一下有没有用上", "check whether"). */
export const EMBEDDING_VERBS = w(
  ['说一下', '说明', '告诉我', '看看', '看一下', '看', '检查', '确认', '提醒我', '标出', '列出', '注明', '查一下', '判断', '写清楚', '讲一下',
    '顺便说', '说说', '说下', '讲下', '看下', '指出', '写', '讲', '解释', '先写', '说清楚', '讲清楚', '说', '再说', '先说', '附', '附一下', '附上', '标一下', '写一下', '注明'],
  ['tell me', 'check', 'mention', 'note', 'point out', 'say', 'explain', 'list', 'show', 'verify', 'confirm', 'flag'],
);

/** "like / unlike / 像…那样": a mention of another project that compares, not one that owns the act. */
export const COMPARISONS = w(['像', '跟', '和', '比', '不像', '不要像', '别像', '同'], ['like', 'unlike', 'than', 'as in', 'same as']);

/** The body of a description of software behaviour: "总是报错", "fails on unknown properties". */
export const DESCRIPTION = w(
  ['报错', '失败', '挂', '超时', '崩', '崩溃', '卡住', '卡', '出错', '不过', '爆红', '变红', '抛', '返回', '输出', '打印', '报', '飘红',
    '不稳定', '漏', '丢', '重试', '会', '是', '为', '就是', '开启了', '启用了', '关闭了', '打开了', '用了', '使用了', '走的是', '用的是',
    '指向', '生成'],
  ['fails', 'failing', 'throws', 'returns', 'crashes', 'freezes', 'hangs', 'dies', 'stalls', 'explodes', 'lags', 'spins',
    'breaks', 'times out', 'errors', 'logs', 'prints',
    'is', 'are', 'was', 'were', 'uses', 'sends', 'retries', 'skips', 'ignores', 'emits', 'writes', 'reads', 'runs', 'points',
    'picks', 'resolves', 'sets', 'adds', 'includes', 'excludes', 'will', "won't", "doesn't", 'does', 'has', 'creates', 'blocks',
    'rejects', 'accepts', 'serializes', 'loads', 'caches', 'expires', 'falls back', 'defaults', 'comes with', 'ships with',
    'treats', 'generates', 'allows'],
);

/** Standing markers that describe how things behave when their subject is a thing, not a person. */
export const DESCRIPTIVE_MARKERS = w(
  ['总是', '一直', '始终', '每次…都', '默认', '默认情况下', '默认的情况下', '老是', '经常', '永远', '一直都'],
  ['always', 'never', 'by default', 'every time', 'default to', 'each time', 'whenever'],
);

/** A marker word inside one of these is a noun, not a speech act ("以后端", "代码示例", "default branch"). */
export const NOUN_COMPOUNDS = w(
  ['以后端', '以后台', '以后续', '以后面', '以后缀', '以后者', '以后果', '以后期', '以后再', '之后再', '以后有空', '以后有时间', '的默认', '默认值', '默认分支', '默认参数', '默认配置', '默认端口', '默认的', '默认是', '最终一致',
    '最终用户', '最终产物', '决定性', '决定因素', '约定俗成', '以后再说', '以后再看', '以后再议', '之后再说'],
  ['default branch', 'default value', 'default values', 'default port', 'default config', 'default configuration',
    'default settings', 'the default', 'a default', 'defaults to', 'always-on', 'never-ending', 'never mind', 'as always',
    'as usual', 'final call to',
    'adopt a', 'dropdown', 'rule out', 'ruled out'],
);

/** Past-time or state words that make a sentence a fact about the code, not discussion. */
export const CODE_FACT = w(
  ['一直是', '一直都是', '原因是', '是因为', '根因是', '问题出在', '日志看', '从日志', '里有个', '里面有个', '中有个', '有个 bug', '有个bug', '我们用的是', '我们现在用', '我们目前用', '现在用的是', '目前用的是', '现在用', '目前用', '当前用', '现在是', '目前是',
    '当前是', '用的是', '跑在', '依赖的是', '依赖', '实现在',
    '写在', '定义在', '返回的是', '返回', '版本是', '配置的是', '位于', '放在', '继承自', '调用了', '里面有', '一共有', '目前有', '现在有', '读取的是', '调用的是', '依赖的是', '返回的是', '读的是', '写的是', '指向的是', '继承的是', '实现的是', '连的是'],
  ['defaults to', 'because', 'the cause is', 'caused by', 'the reason is', 'turns out', 'currently uses', 'currently use', 'we use', 'we have', 'we run', 'we deploy', 'uses', 'is using', 'is written in',
    'is implemented in', 'runs on', 'depends on', 'returns',
    'is defined in', 'lives in', 'is located in', 'extends', 'calls', 'there are', 'there is', 'has', 'contains', 'is set to',
    'is configured', 'points to', 'version is', 'is on version', 'is pinned to'],
);

/** What marks a discussion the user is having (needed with a fact for discussion context). */
export const DISCUSSION = w(
  ['我们在', '我在', '正在', '在比较', '在讨论', '在考虑', '在纠结', '在权衡', '在看', '在排查', '在调研', '在评估', '想要',
    '想', '考虑', '讨论', '比较', '对比', '方案', '纠结', '权衡', '评估', '调研', '排查', '尝试', '试试', '目标', '担心', '问题是',
    '接下来', '下一步', '思路'],
  ["we're", 'we are', "i'm", 'i am', 'comparing', 'discussing', 'considering', 'weighing', 'evaluating', 'investigating',
    'debugging', 'trying', 'planning', 'plan', 'want', 'goal', 'worried', 'concern', 'next step', 'options', 'option',
    'trade-off', 'tradeoff', 'figure out', 'looking into', 'thinking'],
);

/** A short confirmation of the proposal just before ("好", "同意", "sounds good, go with that"). */
export const CONFIRMATIONS = w(
  ['同意', '好的', '好滴', '好嘞', '好', '行', '可以', '没问题', '就这么办', '就这样', '就这么定', '就这么定了', '按你说的', '照你说的',
    '听你的', '就按这个', '就用这个', '就这个', '对', '是的', '嗯', '嗯嗯', '确认', '赞成', '那就这样', '就这么做', '定了', '就它了',
    '成', '妥', '可', '要', '对的', '没错', '就这么搞', '搞吧', '整吧', '冲', '上吧', '来吧', '行吧', '好吧', '也行', '安排',
    '按这个来', '就按你说的来', '那就这么办', '就按这个方案', '赞', '就这么着', '那就这么着'],
  ['agreed', 'agree', 'sounds good', 'sounds right', 'lock that in', 'lock it in', "let's lock", 'go with that', 'go with it', "let's do that", "let's do it", 'do it', 'yes', 'yep', 'yup',
    'yeah', 'ok', 'okay', 'k', 'sure', 'lgtm', 'approved', 'makes sense', 'that works', 'deal', 'fine', 'go ahead', 'ship it',
    'yes please', 'that one', 'perfect', 'great', 'please do', 'sounds great', 'works for me', 'go for it', 'y', '+1',
    'do that', "let's go", 'absolutely', 'sgtm', 'fine by me', 'alright', 'all right', 'good call', 'sold', 'exactly',
    "that's right", 'correct', 'right', '👍', '👌', '✅', '💯', '🙆', 'the first one', 'the second one',
    'first one', 'second one'],
);

/** Fillers a short confirmation may carry besides its confirmation words. */
export const CONFIRMATION_FILLERS = w(
  ['那', '就', '吧', '呀', '啊', '哈', '哦', '噢', '呗', '了', '这样', '那就', '吧吧', '嘞', '哒', '啦', '的', '先', '方案', '一', '二',
    '第一个', '第二个', '用', '这个', '那个', 'a', 'b'],
  ['then', "let's", 'that', 'it', 'please', 'thanks', 'thank you', 'cool', 'nice', 'good', 'so', 'go', 'with', 'the', 'one',
    'plan', 'a', 'b', 'just', 'and', 'then', 'oh', 'ah', 'hmm', 'well', 'we'],
);

/** An assistant proposal a confirmation can bind to. */
export const PROPOSALS = w(
  ['建议', '推荐', '提议', '我们可以', '可以考虑', '不如', '要不要试试', '要不试试', '要不', '要不要', '我的建议是', '我倾向于', '倾向于',
    '方案是', '可以改为', '可以改用', '可以采用', '可以换成', '可以用', '应该用', '最好用', '我会选', '我选', '是否要', '要我',
    '你看要不要', '是否考虑', '考虑', '那我们就', '我们就', '对吗', '好吗', '可以吗', '行吗', '怎么样', '你看如何', '要不要我', '我倾向', '倾向', '我可以', '我会先', '建议：', '方案：', '提议：'],
  ['i suggest', "i'd suggest", 'i recommend', "i'd recommend", 'i propose', "i'd propose", 'my recommendation', 'my suggestion',
    'my proposal', 'i would propose', 'i would suggest', 'i would recommend', 'we could', 'we should', 'how about', 'what about',
    'shall we', 'proposal:', 'recommendation:', 'suggestion:', "i'd go with", 'i would go with', "i'd pick", 'i would pick', "i'd go for", 'i could', 'consider', 'recommend', 'suggest', 'propose', 'should we', 'want me to',
    'should i', 'shall i', "let's", 'the best option', 'best option', 'i lean towards', 'i lean toward', "i'd lean",
    'one option', 'sound good', 'sounds good?', 'ok?', 'right?', 'agreed?', 'does that work'],
);

/** Negations that cancel an act a few characters or words after them. */
export const NEGATIONS = w(
  ['不', '没', '没有', '并没有', '别', '未', '并非', '不是', '不再', '从不', '从未', '不会', '不用', '无需', '不必', '没必要', '不打算'],
  ['not', 'never', 'no longer', "don't", "didn't", "doesn't", "won't", "haven't", "hasn't", "wasn't", "weren't", "isn't",
    "aren't", 'cannot', "can't", 'do not', 'did not', 'does not', 'will not', "wouldn't", "shouldn't", 'no', 'nobody', 'no one'],
);

/** Pronouns the segmenter may glue to the next word ("我不是"): they need a word boundary before them only. */
export const ZH_PRONOUNS = '我你咱他她';

/** Words that start with a negation character but negate nothing ("不同", "没错", "别的"). */
export const NOT_NEGATIONS = ['不同', '不错', '不少', '不断', '不仅', '不管', '不论', '不过', '不久', '不妨', '没错', '别的', '别人', '别处', '未来',
  '未必', '不然', '不如'];

/** Suffixes that make a group of other people ("移动端团队", "客户那边"), unless "我们/咱们/本" owns them. */
export const GROUP_SUFFIXES = ['组', '团队', '部门', '小组', '那帮人', '那伙人', '那边', '公司'];

/** Past-tense verbs after "always/never": a habit in the past is a description, not a wish. */
export const EN_PAST = ['got', 'had', 'was', 'were', 'did', 'went', 'made', 'saw', 'knew', 'thought', 'said', 'took', 'ran',
  'wrote',
  'found', 'felt', 'came', 'gave', 'kept', 'left', 'built', 'broke', 'chose', 'understood', 'liked'];

/** Words that hold a disqualifier word but mean something else ("默认假设" = assume by default, "临时文件" = temp file). */
export const NOT_DISQUALIFIERS = w(
  ['默认假设', '先假设', '都假设', '就假设', '可能性', '不确定性', '尽可能', '临时文件', '临时目录', '临时表', '临时变量', '今天的日期'],
  ['assume that', 'temporary file', 'temporary files', 'temp file', 'temp files', 'temporary table', 'temporary directory'],
);

/** A complaint beside a habit ("每次部署都要手动改配置，太麻烦了"): the habit is the pain described, not a rule asked for. */
export const COMPLAINTS = w(
  ['太麻烦', '好麻烦', '真麻烦', '很麻烦', '太慢', '好慢', '好烦', '很烦', '烦死', '受不了', '太难', '好累', '太蠢', '太坑', '好坑', '真坑', '头疼',
    '崩溃了', '心累', '无语', '太久', '好久', '太长了', '太费时', '太耗时', '等太久', '太痛苦', '好痛苦', '痛苦', '累死', '折磨', '太烦', '烦'],
  ['annoying', 'painful', 'a pain', 'sucks', 'so slow', 'too slow', 'drives me crazy', 'frustrating', 'such a hassle', 'ugh'],
);

/** Words that hold a third party's name but name a thing ("客户端" is the client side, "上面的代码" the code above). */
export const NOT_PARTIES = w(['客户端', '用户端', '运维平台', '运维脚本', '上面的', '上面那', '上面这', '上面说的', '产品代码', '产品环境'], ['they say',
  'product code']);

/** Events and completed actions: 以后/之后 right after one of them is "after X" ("升级以后", "改完以后"), not "from now on". */
export const AFTER_EVENTS = w(
  ['完', '好', '了', '过', '掉', '升级', '上线', '发布', '部署', '合并', '合进去', '提交', '重启', '安装', '迁移', '改', '修', '跑', '测', '发版',
    '重构', '启动', '登录', '注册', '打包', '构建', '编译', '更新', '下班', '开会', '回来', '吃饭', 'review', '评审', '确认', 'merge', '部署完'],
  [],
);

/** Verbs of one's own mishaps: "I always forget …" describes a habit, it asks for nothing. */
export const EN_MISHAPS = ['forget', 'forgot', 'mix', 'confuse', 'struggle', 'miss', 'lose', 'mess', 'screw', 'end', 'wonder',
  'fall',
  'trip', 'seem', 'get'];

/** Pronouns that open the result clause of "every time I …, they fail": what follows is behaviour. */
export const EN_RESULT_SUBJECTS = ['they', 'it', 'this', 'that', 'the', 'there', 'he', 'she', 'everything', 'nothing',
  'something', 'things'];

/** Offers of the assistant's own work ("want me to …",
  "要我…吗"): a confirmation of one is a task, unless it names a project choice. */
export const OFFERS = w(['要我', '要不要我', '需要我', '我来'], ['want me to', 'should i', 'shall i', 'do you want me to',
  'would you like me to', 'i can', 'like me to']);

/** English verbs of deciding or wanting: a sentence with one of them needs us (or no one) as its subject. */
export const EN_DECIDING = ['decided', 'decides', 'agreed', 'agrees', 'settled', 'chose', 'picked', 'going with', 'switching',
  'switched', 'moved',
  'adopt', 'adopted', 'adopting', 'moving to', 'standardiz', 'standardis', 'migrat', 'wants', 'prefers', 'use', 'using'];

/** Adverbs and fillers that may open an English clause before its subject. */
export const EN_OPENERS = ['so', 'ok', 'okay', 'finally', 'also', 'then', 'and', 'but', 'well', 'anyway', 'basically',
  'honestly', 'yeah',
  'right', 'now', 'today', 'recently', 'eventually', 'ultimately', 'in the end', 'after all'];

/** The shape of a fact about the code: "这个表有 3 亿行", "The config loader reads from …". */
export const FACT_SHAPES = {
  zh: '^(?:(?:(?:默认情况下|默认)?[，,\\s]*(?:[^，,。\\s]{1,6}?的?\\s*)?`?[a-z@][\\w.-]*(?:\\s*(?:默认)?\\s*(?:的|里的|里)\\s*[^，,。]{1,24}?)?\\s*(?:默认)?\\s*(?:只|不会|会|是|为|有|叫|不支持|支持|返回|需要|没有|加在了|用了|没生效|没走|不走|走了|没|设的是|设成|设为|配的是|配置的是))|(?:这个|那个|该|此|这些|那些|这段|这张|这条|这次)[^，,。]{1,24}?(?:了|没|不)|' + '(?:(?:这个|那个|该|此|这些|那些|这张|这段)[^，,。]{1,14}?|[\\w./-]+\\s*(?:里|中)(?:的[^，,。]{1,12}?)?)(?:有|是|为|用了|用的|依赖|返回|调用|继承|实现|包含|指向|监听|读取|写入|存了|存在|写到|发到|存到|推到|转成|放到|发送到))',
  en: "^(?:[a-z][\\w.-]*(?:'s)?\\s+(?:[\\w.-]+\\s+){0,3}(?:defaults to|is|are|has|only|doesn't|does not|returns|retries|supports|takes|accepts|expects|requires|needs|throws|pins|pinned)\\s|(?:the|this|that|these|those|its|our)\\s+[\\w.-]+(?:\\s+[\\w.-]+){0,3}\\s+(?:is|are|was|has|have|uses|reads|writes|returns|calls|stores|loads|runs|holds|contains|lives|sits|points|depends|extends|implements|listens|sends|pushes|pulls|builds|deploys|publishes|emits|triggers|parses|validates|creates|deletes|updates|fetches|caches|logs|retries|handles|wraps|exports|renders|compiles|generates|schedules|spawns|starts|stops|connects|uploads|downloads|syncs|maps|converts|writes|reads)\\b)",
};

/** Particles that may follow a Chinese marker inside one segmenter word ("留了", "都要"). */
export const ZH_PARTICLES = '了着过吧啦呢嘛都也就的得地又再要呀啊哈把用能给按让';

/** Chinese answer-about-the-assistant words: a standing pattern about answers is a preference, never a project decision. */
export const ABOUT_ANSWERS = w(
  ['回答', '回复', '解释', '你', '输出', '先给', '告诉我', '提醒我', '问我', '用中文', '用英文', '总结', '给我'],
  ['answer', 'answers', 'reply', 'replies', 'respond', 'response', 'responses', 'explain', 'explanation', 'you', 'tell me',
    'remind me', 'ask me', 'summarize', 'summary', 'lead with', 'show me'],
);

/**
 * Small closed word classes the gate's grammar rules are written with. Each is used where its name says; the
 * rules themselves (positions, scopes) live in gate.ts.
 */
export const GRAMMAR = {
  /** What a Chinese descriptive marker is followed by when it describes: "总是报错", "默认会…", "一直超时". */
  zhBehaviourAfter: ['会', '报错', '失败', '挂', '超时', '崩', '出错', '不稳定', '飘红', '爆红', '卡', '很慢', '慢', '红', '不过', '抛', '返回',
    '是', '为', '就'],
  /** Failures that make any subject's "总是/每次都" a description ("总是报错"). */
  zhFailures: ['报错', '失败', '挂', '超时', '崩', '出错', '不稳定', '飘红', '爆红', '卡', '很慢', '慢', '红', '不过', '冲突'],
  /** What "每次…都会" happens when it describes ("每次调用都会新建连接"). */
  zhEvents: ['报', '抛', '出', '失败', '超时', '挂', '打印', '输出', '提示', '弹', '新建', '创建', '重新', '触发', '生成', '返回', '多', '少'],
  /** Verbs of spending time ("每次都要跑 40 分钟"). */
  zhDurations: ['跑', '花', '耗', '等'],
  /** Units of a duration ("每次都要 10 分钟"). */
  zhTimeUnits: ['分钟', '秒', '小时', '天', '个小时'],
  /** How an imperative starts after a fronted "默认，…" ("默认，用 pnpm"). */
  zhImperativeStarts: ['用', '走', '开', '关', '给', '加', '写', '放', '按', '先', '都', '不', '别'],
  /** Words pointing at one thing: "这个服务默认监听 8080" describes it. */
  zhDemonstratives: ['这个', '那个', '该', '此', '这些', '那些', '这张', '这段', '它'],
  /** Words that put the act in the consequence of a condition ("如果 CI 挂了，就…", "if …, then …"). */
  consequences: ['就', '那就', '都', 'then'],
  /** Clause endings that make a clause a condition ("遇到…的时候"); "的话" makes the act itself conditional. */
  conditionEndings: ['的时候', '之前', '之后', '以前', '以后', '时'],
  actConditionEndings: ['的话'],
  /** Clause endings that postpone ("…的时候再说", "回头再看"). */
  postponeEndings: ['再说', '再看', '再议', '再定', '再决定'],
  /** Right after an act, these make it a condition ("决定好了就告诉我"). */
  actConditionFollowers: ['好了就', '了就', '完就', '好就', '了以后就', '了之后就'],
  /** Acts that carry their own negation ("别再", "never"): a negation before them is not looked for. */
  prohibitiveStarts: ['别', '不', '没', 'never', 'no ', "don't", 'do not', 'stop'],
  /** Time adverbs that predict with 会 ("我们以后会有…"), unless a rule word follows. */
  futureAdverbs: ['以后', '今后', '往后', '将来'],
  ruleWords: ['都', '一律', '必须', '要', '别', '不要'],
  /** What may stand before an English imperative ruling ("let's drop …", "we'll remove …"). */
  enRulingLeads: ['ok', 'okay', 'so', 'and', 'then', 'just', "let's", 'let us', "we'll", 'we will', 'we should', 'we can',
    "we're going to",
    'we are going to', 'please'],
  /** Relative words before a modal make it part of a noun phrase ("anything that might break"). */
  enRelatives: ['that', 'which', 'who', 'anything', 'something', 'whatever', 'what'],
  /** Joining words of a joint act ("我们和后端组一起决定", "we and the platform team"). */
  joints: ['和', '跟', '与', '同', 'and', 'with'],
  /** Owners inside a group name ("我们项目组"). */
  groupOwners: ['我们', '咱们', '本', '我', '咱'],
  /** Words before 说/觉得 that are not a reporter ("比如说", "如果说", "我觉得"). */
  notReporters: ['比如', '如果', '就是', '也就是', '换句话', '再', '听', '据', '可以', '应该', '怎么', '这么', '那么', '来', 'as', 'like', 'i'],
  /** Adverbs and prepositions that may stand beside 我/我们/你 before 说/觉得 ("我一直觉得", "我跟你说"); anything else names someone else. */
  ownSubjectAdverbs: ['也', '都', '之前', '以前', '刚才', '刚刚', '一直', '其实', '早就', '已经', '就', '还', '又', '确实', '个人', '自己', '本人', '也是',
    '不是', '并不是', '是', '不', '没', '只是', '就是', '上周', '昨天', '上次', '前面', '前两天',
    '真的', '始终', '总', '老', '曾经', '上次', '昨天', '今天', '跟', '对', '给', '和', '同', '向'],
  /** English verbs of saying that may stand right before their speaker ("…, says my manager"). */
  enReportingVerbs: ['says', 'said', 'writes', 'wrote', 'according to', 'per', 'insists', 'suggested', 'decided', 'wants'],
  /** Discourse words that may stand before the user's own 说 ("还是说一下", "再说一遍", "补充说明"). */
  speakerFillers: ['还是', '那么', '那', '就', '再', '先', '也', '顺便', '另外', '补充', '最后', '总之', '对了', '然后', '所以', '还', '又',
    '上周', '上个月', '昨天', '前天', '前面', '之前', '以前', '刚才', '刚刚', '上次', '早上', '今天', 'hmm', 'ok', 'okay', 'so', 'well', '嗯', '哦', '噢', '呃',
    '重新', '再次', '好', '嗯', '总结', '简单', '提前', '这里', '我再', '我先', '我就', '我还是', '我'],
  /** Tails that attribute a statement to someone ("…，这是老板定的"). */
  attributionTails: ['定的', '说的', '要求的', '决定的', '的要求', '的意思', '拍板的'],
  /** Before an A-not-A form, these make it no question ("不管要不要", "别问我要不要"). */
  zhNotQuestionBefore: ['不管', '无论', '不论', '别问', '不用问', '不要问', '问我', '再问'],
  /** wh-words that always ask ("为什么" is never a universal). */
  zhWhy: ['为什么', '为啥', '如何', '怎样'],
  /** After a wh-word, these make it a universal ("什么时候都…"); before it, these make it no question ("没什么"). */
  zhUniversalAfter: ['都', '也'],
  zhNotWhBefore: ['没', '为', '有'],
  /** Sentence ends that are wh-words, not question particles ("用什么"). */
  zhWhEnds: ['什么', '怎么', '多少'],
  /** A negation right before a hedge cancels the hedge ("别纠结格式", "don't worry about"). */
  hedgeNegations: ['别', '不要', '不用', '不必', '无需', "don't", 'do not', 'no need to', 'never'],
  /** Interjections that may stand before a ruling label ("OK, final answer: …", "好，结论：…"). */
  labelLeads: ['ok', 'okay', 'so', 'alright', 'well', 'right', '好的', '好', '那', '那么', '行'],
  /** Words that may open an English clause before a question word ("so, what …"). */
  enClauseOpeners: ['so', 'ok', 'okay', 'hey', 'hmm', 'also', 'and', 'but', 'btw', 'well'],
  /** English subjects and words around always/never. */
  enPersons: ['i', 'we', 'you', "let's", 'please', "we're", "i'm", "you're"],
  enDeterminers: ['the', 'this', 'that', 'these', 'those', 'my', 'our', 'its', 'their', 'his', 'her', 'a', 'an'],
  enWanting: ['should', 'must', 'need', 'needs', 'will', "we'll", 'shall'],
  enBe: ['is', 'are', 'was', 'were', 'be'],
  enPerfect: ['have', 'has', 'had', "i've", "we've", "they've"],
  /** How a fronted English wish goes on ("By default, use …"). */
  enWishStarts: ['i', 'we', 'you', "let's", 'please', 'always', 'never', 'use', 'do', "don't"],
  /** Adverbs that may stand alone before a deciding verb ("finally decided"). */
  enLoneAdverbs: ['just', 'really', 'finally', 'already', 'also', 'officially', 'now'],
  /** Verbs of change: a decision made of one of them can be a one-off task. */
  changeVerbs: ['改', '换', '迁', '切', '删', '用', 'drop', 'remove', 'switch', 'move', 'migrate', 'use'],
  /** One-word confirmations that need a proposal at the end of the answer before them. */
  bareConfirmations: ['ok', 'okay', 'k', 'y', 'yes', 'yep', 'sure', 'yeah'],
  /** What may open a clause before a grammar act ("就是 @Data 别用…", "but please don't …"). */
  clauseLeads: ['就是', '但是', '但', '不过', '还有', '另外', '而且', '并且', '也', '就', '请', '你', '千万', '一定', '记得', '所以', '那', '那就',
    '最后', '先', '再', '然后', '都',
    'and', 'but', 'also', 'so', 'please', 'just', 'then', 'and please', 'ok', 'okay'],
  /** Subjects that make a prohibitive a statement about oneself ("I don't …", "我们不要…", "要不要"). */
  speakingSubjects: ['i', 'we', "we'd", 'they', 'he', 'she', '我', '我们', '咱们', '他', '她', '他们', '要', '能', '会', '可', '该', '用', '是'],
  /** Prohibitives that open a general rule ("别用缩写", "不要自己算", "don't …", "never …"). */
  prohibitives: ['千万别', '千万不要', '不要', '别', '不许', '不准', '禁止', '严禁', '不能', '不用再', "don't", 'do not', 'never', 'avoid'],
  /** Imperative verbs that open an instruction ("先问我", "附上…", "ask me first", "include …"). */
  imperatives: ['直接', '按', '照', '给', '先给我', '给我', '先问我', '先问', '问我', '告诉我', '提醒我', '先说', '附上', '加上', '带上', '给出', '列出', '标出', '标注', '注明', '写上', '先给', '直接给',
    '用', '都用', '统一用', '走', '先跑', '跑', '加', '写', '别', '不要', '记得', 'ask me', 'ask', 'tell me', 'include', 'add', 'put', 'show',
    'give', 'mention', 'start with', 'lead with', 'end with', 'use', 'run', 'mark', 'flag', 'check', 'list', 'always', 'never', "don't"],
  /** Subjects of a convention of ours ("我们用…", "we target …"). */
  ownConventionSubjects: ['我们', '咱们', '本项目', '这个项目', '这个仓库', 'we', "we'd", "we'll", 'this repo', 'this project', 'the repo'],
  conventionModals: ['统一', '都', '一律', '只', 'should', 'always', 'only', 'must'],
  /** Verbs of a convention. */
  conventionVerbs: ['就是', '用', '使用', '采用', '走', '保持', '维持', 'use', 'target', 'keep', 'support', 'require', 'pin', 'deploy', 'ship', 'run',
    'write', 'store', 'follow'],
  /** What follows a weakener in a weakened rule ("尽量用…", "最好都走…", "每个回答控制在…"). */
  weakRuleVerbs: ['都', '用', '写', '走', '控制在', '保持', '加', '给', '别', '不要', '每个', '所有', 'use', 'keep', 'write', 'add', 'avoid', 'every', 'all'],
  /** Words of a universal rule ("every service", "all new code"). */
  universals: ['every', 'all', 'each', 'any', '所有', '每个', '任何', '一律'],
  /** Words that make a "we use" a state of the code, not a convention. */
  presentState: ['现在', '目前', '当前', '用的是', '的是', 'currently', 'right now', 'at the moment', 'today', 'still'],
  /** A choice named against its alternative ("…, not the H2 thing", "而不是", "rather than"). */
  contrasts: ['而不是', '而非', '不要用', '别用', '不用', '不引入', '不上', '不再', '不要引', '别引', ', not ', '，不是', 'rather than', 'instead of', 'not the ', ', no '],
  /** Verbs of choosing a thing to use. */
  choiceVerbs: ['用', '使用', '采用', '走', '上', '选', 'use', 'keep', 'put', 'store', 'go with', 'stick to', 'stick with', 'write'],
  /** Group-name endings that are words, not groups ("组件", "组合"). */
  notGroupEndings: ['件', '合', '成', '织', '装', '队'],
} as const;
