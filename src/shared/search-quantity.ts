/**
 * Answer types of the ranked search (M-7.7): a question that asks for a quantity ("how long", "保留多久", "跑几个副本")
 * is answered only by a text that states one. A memory about the subject that gives no number, period or frequency
 * is about another aspect of it: "Feast 特征 TTL 设多久" is not answered by "features are served from Feast", nor
 * "how many replicas does the gateway run" by "the gateway is deployed with Helm".
 */

/** Marks the content row of an item whose text states a quantity (normalized words never hold '#'). */
export const QUANTITY_MARK = '#';

// Measure words and units a Chinese number is said with (三个, 两天, 5 分钟, 一亿行, 72 字符).
const ZH_UNITS =
  '个|次|天|日|年|月|周|号|分钟|分|小时|时|秒|毫秒|种|条|位|台|倍|遍|层|步|轮|项|页|行|份|字|字符|张|人|件|成|折|万|亿|千|百|期|' +
  '版|代|级|档|核|星期|副本|实例|节点';
const EN_NUMBERS =
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty hundred ' +
  'thousand million billion half once twice';
const EN_FREQUENCIES = 'daily weekly monthly nightly hourly yearly annually quarterly';
const EN_UNITS = 'second minute hour day night week month quarter year sprint release';

/**
 * A stated quantity: a number standing alone or with its unit (30, 2.5, 30s, 200ms; not the digits of a name such as
 * K8s, S3 or v1), a Chinese numeral with a measure word (三个, 两天, 半年), a weekday (周二, 星期五), a day said as a
 * period (当天, 次日) or a frequency (每天, 每周), an English number word, a frequency word (daily, weekly) or one unit
 * of time (an hour, per day, every sprint), and what never ends (永久, forever).
 */
const STATED_QUANTITY = new RegExp(
  [
    '(?<![\\p{L}\\p{N}_.])\\d+(?:[.,]\\d+)*(?![\\p{L}]*\\d)',
    `[零一二两三四五六七八九十百千万半几]+(?:${ZH_UNITS})`,
    '(?:周|星期|礼拜)[一二三四五六日天]',
    '当天|当日|次日|隔天|隔日|永久|每[天日周月年晚]',
    `\\b(?:${[EN_NUMBERS, EN_FREQUENCIES].join(' ').replaceAll(' ', '|')}|forever)\\b`,
    `\\b(?:an?|per|each|every)\\s+(?:${EN_UNITS.replaceAll(' ', '|')})s?\\b`,
  ].join('|'),
  'iu',
);

// Measure words a number is asked in after 几 (几次, 几天, 几个), as in the word rules of shared/search-words.
const ZH_ASKED_UNITS = '个|次|天|年|月|周|号|分钟|小时|秒|毫秒|种|条|位|台|倍|遍|层|步|轮|项|页|行|份';

/**
 * A question for a quantity: 多久, 多少, 多长, 多大 and the like, 几 with a measure word (几个, 几天; not 好几个 or 十几个,
 * which say "several"), and "how" with a word of degree (how long, how many, how often).
 */
const ASKS_QUANTITY = new RegExp(
  [
    '多久|多少|多长|多大|多高|多远|多快|多频繁|多重',
    `(?<![好十百千万])几(?:${ZH_ASKED_UNITS})`,
    '\\bhow\\s+(?:long|many|much|big|large|small|often|frequently|old|far|soon|fast)\\b',
  ].join('|'),
  'iu',
);

/** True when the text states a quantity (see STATED_QUANTITY): its item can answer a question for one. */
export function statesQuantity(text: string): boolean {
  return STATED_QUANTITY.test(text.normalize('NFKC'));
}

/** True when the query asks for a quantity: only items that state one may answer it through the ranked stage. */
export function asksQuantity(query: string): boolean {
  return ASKS_QUANTITY.test(query.normalize('NFKC'));
}
