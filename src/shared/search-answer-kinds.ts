/**
 * Answer kinds of the ranked search beyond a quantity and a name form (M-7.7, shared/search-answer-types): a question
 * for a time, a reason, a person or the steps of a procedure is answered only by a text that states one. A memory
 * about the subject that gives no time word, no reason clause, no person or role or no ordered steps is
 * about another aspect of it: "when do we cut the release branch" is not answered by "release branches are named
 * release/x.y", nor "why is Redis the session store" by "sessions live in Redis".
 *
 * Each kind is a pair: what asks for it (a question word, in zh and en) and what states it. The statements are wide on
 * purpose: an item that states more kinds than it answers only ranks as before, while a narrow statement would drop
 * memories that answer in words of their own.
 */

// Measure words of a Chinese time (3 点, 5 号, 周二 are said with them).
const ZH_TIME_UNITS = '点|号|日|月|年|季度|周|星期|礼拜|分钟|小时|天|晚|秒|毫秒';
// Months, not "may" (a modal verb far more often) and not the short forms that are words (mar, jan).
const MONTHS = 'january february march april june july august september october november december feb apr jun jul aug sep sept oct nov dec';
const WEEKDAYS = 'monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend weekends';
const EN_NUMBERS = 'one two three four five six seven eight nine ten twelve fifteen twenty thirty a an';
const EN_TIME_UNITS = 's sec second min minute h hr hour day night week month quarter year sprint am pm';
const alternatives = (words: string): string => words.trim().split(/\s+/u).join('|');
/** Whole English words or phrases (`_` between the words of a phrase; an entry may end on a pattern, `investigat\\w*`). */
const englishWords = (words: string): string =>
  `\\b(?:${words
    .trim()
    .split(/\s+/u)
    .map((w) => w.replaceAll('_', '\\s+'))
    .join('|')})\\b`;

/**
 * A question for a time or for the condition something is done on: 什么时候, 何时, 哪天, 几点, 截止, "when" opening a
 * question (not "what to do when CI fails"), "what time", "which day", "how soon", "due date".
 */
export const ASKS_TIME = new RegExp(
  [
    '什么时候|什么时间|啥时候|何时|哪天|哪一天|哪个月|哪一年|几点|几号|截止|多久一次',
    '(?:^|[,.;:?!，。；：？！]\\s*)when\\s+(?:do|does|did|is|are|was|were|should|will|can|shall|would|could|must|has|have)\\b',
    "(?:^|[,.;:?!，。；：？！]\\s*)when(?:'s|\\s*\\?|\\s*$)",
    '\\b(?:what|which)\\s+(?:time|day|date|month|week|hour)\\b|\\bdue\\s+date\\b|\\bhow\\s+soon\\b',
  ].join('|'),
  'iu',
);

/**
 * A stated time: a date or a clock time (2026-03-01, 3 月 15 日, 14:00, 3pm), a month, a weekday, a quarter, a day said
 * relative to today (明天, 下周, next week), a frequency (每天, nightly), and the words that place an event relative to
 * another or to a condition (之前, 之后, 一旦, before, after, until, once, whenever), a number of a unit of time (30 days,
 * 两周, two sprints), and a condition ("only for idempotent calls", "above 100M rows", 只有, 超过, 如果): "when" asks for
 * either. A number alone states no time ("Postgres 16").
 */
export const STATES_TIME = new RegExp(
  [
    '\\d{4}[-/.]\\d{1,2}(?:[-/.]\\d{1,2})?|\\d{1,2}:\\d{2}|\\b\\d{1,2}\\s*(?:am|pm)\\b',
    `[\\d零一二两三四五六七八九十]+\\s*(?:${ZH_TIME_UNITS})`,
    '(?:周|星期|礼拜)[一二三四五六日天末]|月底|月初|月中|年底|年初|季度|凌晨|早上|上午|中午|下午|晚上|半夜|夜里|周末|工作日',
    '今天|明天|后天|昨天|本周|这周|下周|上周|本月|下个月|下月|今年|明年|当天|次日|隔天|每[天日周月年晚次]',
    '之前|之后|以内|之内|前后|期间|的时候|时候|一旦|每当|每次|直到|届时|上线前|发布前|合并前|提交前',
    `\\b(?:${alternatives(`${MONTHS} ${WEEKDAYS}`)})\\b`,
    '\\bq[1-4]\\b|\\b(?:today|tomorrow|tonight|yesterday|daily|weekly|monthly|nightly|hourly|yearly|quarterly)\\b',
    '\\b(?:next|this|last|every|each)\\s+(?:week|month|quarter|year|day|night|sprint|release|morning|evening)\\b',
    '\\b(?:before|after|until|till|once|whenever|during|prior\\s+to|as\\s+soon\\s+as|by\\s+the\\s+end)\\b|\\bend\\s+of\\b',
    // a number of a unit of time: 30 days, 2 weeks, two sprints, every other week
    `\\b(?:\\d+|${alternatives(EN_NUMBERS)}|other|few|couple\\s+of)\\s*(?:${alternatives(EN_TIME_UNITS)})s?\\b`,
    // a condition
    '只有|只在|仅在|仅限|如果|若是|一旦|超过|低于|高于|大于|小于|不超过|满足|达到',
    '\\b(?:only\\s+(?:for|when|if|on|after|before|in|once)|if|unless|above|below|exceeds?|more\\s+than|less\\s+than|at\\s+least|when)\\b',
    '\\b(?:over|under)\\s+\\d',
  ].join('|'),
  'iu',
);

/** A question for a reason: 为什么, 为啥, 为何, 原因, 理由, 动机, why, how come, the reason / rationale. */
export const ASKS_REASON =
  /为什么|为啥|为何|干嘛要|凭什么|原因|理由|动机|\bwhy\b|\bhow\s+come\b|\breasons?\b|\brationale\b|\bmotivation\b/iu;

/**
 * A stated reason: a clause of cause or purpose (因为, 由于, 为了, 所以, 以免, 否则, because, since, so that, due to,
 * to avoid, otherwise), a word naming the reason or the outcome (原因, 导致, 风险, reason, risk), a comparison a choice
 * is made by (更快, 太慢, 容易, faster, easier, too slow, than), the option a choice is made against (而不是, 不用,
 * instead of, rather than, ", not Electron"), what a choice is judged by (主要看), and the search for a cause (排查,
 * investigating, root cause): the memory of an investigation is what a question for the reason of a fault finds.
 */
export const STATES_REASON = new RegExp(
  [
    '因为|由于|为了|所以|因此|因而|以免|以便|免得|否则|不然|避免|防止|原因|理由|导致|造成|会让|会把|出过|踩过|风险|隐患|问题是',
    '更快|更慢|更小|更大|更稳|更好|更简单|更方便|更安全|更便宜|太慢|太大|太重|太贵|太多|容易|方便|省去|省得|不用再|比\\s*\\S',
    englishWords(
      'because since so_that so_we so_it due_to owing_to in_order_to to_avoid to_prevent to_keep to_make otherwise reasons? rationale',
    ),
    englishWords(
      'risks? breaks broke caused causes leads?_to than too easier harder faster slower simpler safer cheaper smaller bigger better worse',
    ),
    '而不是|而非|不用|不引入|代替|取代|换成|主要看|看重|排查|调查|定位|分析|评估|对比|比较',
    englishWords('instead_of rather_than over versus vs'),
    '[,;:]\\s*not\\b',
    englishWords('investigat\\w* looking_into debugging root_cause diagnos\\w* evaluat\\w* compar\\w*'),
  ].join('|'),
  'iu',
);

// Verbs "who" asks with (who owns, who should review) and words a person is named after (ask Alice, reviewed by Bob).
const WHO_VERBS = 'owns? should can could will would is are was were did does do has have reviews approves handles maintains decides to';
const ROLES =
  'owners? owns owned teams? leads? maintainers? reviewers? on-?call managers? pm qa sre dba devops colleagues? ' +
  'authors? someone whoever';
const HANDING_OVER = '[Aa]sk [Pp]ing [Cc]ontact [Cc]c [Aa]ssigned_to [OoRrAaHhMm](?:wned|eviewed|pproved|andled|aintained)_by';
/**
 * A question for a person: 谁, 哪位, 负责人, 联系人, and "who" opening a question or asking with a verb (who owns, who
 * should review); not "who" starting a clause inside another question ("how do services learn who the user is").
 */
export const ASKS_PERSON = new RegExp(
  [
    '谁|哪位|哪个人|负责人|联系人|对接人|\\bwhom\\b|\\bwhose\\b',
    "(?:^|[,.;:?!，。；：？！]\\s*)(?:and\\s+|so\\s+)?who(?:'s)?\\b",
    `\\bwho\\s+${englishWords(WHO_VERBS)}`,
  ].join('|'),
  'iu',
);

/**
 * A stated person or role: a handle (@alice), a role or a team (负责人, 同事, 团队, owner, team, lead, reviewer, on-call,
 * SRE, DBA), a Chinese name of address (小王, 老李, 王工, 找小王). The pronouns of the speaker (我, we) are left out: nearly every memory says them.
 */
export const STATES_PERSON = new RegExp(
  [
    '@[\\p{L}\\p{N}_-]+',
    '负责人|负责|同事|团队|小组|组长|组里|[前后]端组|运维|测试组|产品经理|经理|老板|客户(?!端)|值班|审核人|维护者|作者|[找问][小老][\\p{Script=Han}]',
    '(?<![\\p{Script=Han}])[小老][\\p{Script=Han}](?![\\p{Script=Han}])|[\\p{Script=Han}](?:工|总|老师)(?![\\p{Script=Han}])',
    englishWords(ROLES),
  ].join('|'),
  'iu',
);
/** … and a person said by name after a verb of asking or handing over (ask Alice, ping Bob, 由 Ming 保管): case matters here. */
export const STATES_PERSON_NAME = new RegExp(`由\\s*\\p{Lu}\\p{Ll}+|${englishWords(HANDING_OVER)}` + '\\s+\\p{Lu}\\p{Ll}+\\b', 'u');

/**
 * A question for the steps of a procedure: 步骤, 怎么操作, steps, procedure, runbook, checklist, walkthrough. Not 流程 or
 * 清单, most often the name of a thing (退款流程 a workflow, 部署清单 the manifests).
 */
export const ASKS_STEPS = /步骤|操作方法|怎么操作|\bsteps?\b|\bprocedures?\b|\brunbooks?\b|\bchecklists?\b|\bwalkthrough\b/iu;

/**
 * Stated steps: a numbered list (1. 2), ①, 第一步), words that order actions (先…再, 然后, 接着, 最后, first, then, next,
 * finally, before, after, followed by), an arrow between actions, a command (命令, a code span: `make migrate`).
 */
export const STATES_STEPS = new RegExp(
  [
    '(?:^|[\\n:：;；(（])\\s*(?:\\d+[.)、]\\s*\\S|[①-⑩])|[①-⑩]|第[一二三四五六七八九十]步|\\bstep\\s*\\d',
    '先[^。；;.!?！？]{0,40}(?:再|然后|后|之后|才)|然后|接着|随后|最后|之后再|再去|之前先|完成后|通过后',
    '\\b(?:first|then|next|finally|afterwards|before|after|followed\\s+by|steps?|commands?)\\b|命令',
    '→|->|=>|`[^`\\n]+`',
  ].join('|'),
  'iu',
);
