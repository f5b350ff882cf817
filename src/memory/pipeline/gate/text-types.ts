import { matchesOf } from './words.js';

/**
 * Text types inside a user turn (M-5.6): pasted logs, stack traces, code, tool output, `git log`/diff lines
 * and quoted documents are not the user speaking, with or without a fence. Line shapes are checked on the
 * RAW text, where case still tells a log level from a word.
 */

const OUTPUT_LINE: readonly RegExp[] = [
  // indented blocks, quoted lines, shell prompts
  /^(?: {4,}|\t)\S/u,
  /^\s*>/u,
  /^\s*(?:\$|>>>|PS [A-Z]:\\[^>]*>|[\w.-]+@[\w.-]+:[^$]*\$) /u,
  /^\s*#!/u,
  // stack frames and exceptions (Java, JS, Python, Go)
  /^\s*at [\w$.<>/@-]+ ?\(/u,
  /^\s*at [\w$.<>]+\.[\w$<>]+\(/u,
  /^\s*at (?:async )?[\w$.]+ \(?[\w./\\:-]+:\d+/u,
  /^\s*File "[^"]+", line \d+/u,
  /^\s*Traceback \(most recent call last\)/u,
  /^\s*(?:Caused by:|Exception in thread |Suppressed:)/u,
  /^\s*[\w$]+(?:\.[\w$]+)+(?:Exception|Error)\b/u,
  /^\s*(?:[A-Z][a-z]+)*(?:Error|Exception)(?::|\s*$)/u,
  /^\s*(?:panic|fatal error|runtime error): /u,
  /^\s*goroutine \d+ \[/u,
  /^\s*-{3} (?:FAIL|PASS|SKIP)/u,
  /^\s*(?:FAIL(?:ED)?|PASS(?:ED)?|ERROR|ok|SKIP(?:PED)?)\s+[\w@-]*[./][\w./@-]*/u,
  // a document's heading (a pasted README or CONTRIBUTING section)
  /^\s*#{1,6}\s+\S/u,
  // columns of tool output ("default-scheduler  0/3 nodes are available")
  /^\s*[\w./:-]+ {2,}\S/u,
  // commit messages ("chore: …", "fix(api): …")
  /^\s*(?:feat|fix|chore|docs|refactor|test|tests|ci|build|perf|style|revert)(?:\([^)\n]*\))?!?: \S/u,
  // chat transcripts: a speaker tag opens the line ("【王磊】…", "[alice] …", "<bob> …")
  /^\s*(?:【[^】\n]{1,16}】|\[[^\]\n]{1,24}\]\s|<[^>\n]{1,24}>\s)\s*\S/u,
  // log lines: level prefixes, timestamps, key=value logs, JSON logs
  /^\s*\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|NOTE|HINT|SEVERE)\]?[\s:|\]-]/u,
  /^\s*\[(?:info|warn|warning|error|debug|trace|fatal)\]/iu,
  /^\s*(?:error|warning|warn|exception|fatal|err)(?:\s*\[[\w-]+\])?:/iu,
  /^\s*\[?\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{1,2}:\d{2}/u,
  /^\s*\[?\d{2}:\d{2}:\d{2}/u,
  /\blevel=(?:info|warn|warning|error|debug|trace)\b/iu,
  /^\s*\{\s*"[\w@.-]+"\s*:/u,
  /^\s*(?:npm|yarn|pnpm) (?:ERR|WARN|error|warn)/u,
  /^\s*error (?:TS|CS)\d+/iu,
  /^\s*[\w./\\-]+\.\w{1,5}[:(]\d+(?::\d+)?\)?:? /u,
  /^\s*E\d{3,4}[: ]/u,
  /^\s*(?:✓|✔|✗|✘|×|√|❯|➜|⨯|●)\s/u,
  /^\s*(?:Tests?|Test Suites|Snapshots|Time):\s+\d/u,
  /^\s*\d+ (?:passing|failing|pending)\b/u,
  // git log, status and diffs
  /^\s*commit [0-9a-f]{7,40}\b/u,
  /^\s*\[[\w./-]+(?: \(root-commit\))? [0-9a-f]{7,12}\] /u,
  /^\s*(?:\* |\| )*(?=[0-9a-f]{7,12}\b)(?=[0-9a-f]*\d)[0-9a-f]{7,12} \S/u,
  /^\s*(?:Author|Date|Merge|AuthorDate|CommitDate):\s/u,
  /^\s*diff --git /u,
  /^\s*index [0-9a-f]{6,}\.\.[0-9a-f]{6,}/u,
  /^\s*@@ -\d+(?:,\d+)? \+\d+/u,
  /^\s*(?:\+\+\+|---) (?:[ab]\/|\/dev\/null)/u,
  /^[+-](?![+-]?\d+\s*$)(?![+-]\s)\S/u,
  new RegExp(
    '^\\s*(?:On branch|Your branch is|Changes (?:not staged|to be committed)|Untracked files' +
      '|nothing to commit|modified:|new file:|deleted:|renamed:)',
    'u',
  ),
  // code-shaped lines
  new RegExp(
    '^\\s*(?:import\\s+(?:[\\w*{][^;]*\\s+from\\s+|[\'"]|[\\w.]+;|[\\w.]+\\s*$|static\\s)' +
      '|export\\s+(?:default|const|function|class|interface|type|\\{|\\*)|from\\s+[\\w.]+\\s+import\\s' +
      '|package\\s+[\\w.]+;?\\s*$|(?:const|let|var)\\s+[\\w${}[\\],\\s]+=|def\\s+\\w+\\(|func\\s+[\\w(]' +
      '|fn\\s+\\w+|class\\s+\\w+.*[:{(]\\s*$|interface\\s+\\w+.*\\{' +
      '|(?:public|private|protected)\\s+(?:static\\s+|final\\s+|abstract\\s+)*' +
      '(?:class|void|int|long|boolean|String|[A-Z]\\w*(?:<[^>]*>)?)\\s+\\w+' +
      '|return\\s.*;\\s*$|#include|using\\s+[\\w.]+;|@[A-Z]\\w*(?:\\(|\\s*$))',
    'u',
  ),
  /^\s*(?:\/\/|\/\*|\*\/|<!--)/u,
  // a SQL or Lua comment ("-- keep two decimals"), not a rule of dashes ("---")
  /^\s*--[ \t]+(?!-)\S/u,
  /^\s*<\/?[a-zA-Z][\w.-]*(?:\s[^>]*)?\/?>/u,
  /[;{]\s*$/u,
  /^\s*[})\]];?,?\s*$/u,
  /^\s*[\w.$]+\s*\([^)]*\)\s*(?:;|\{|=>)/u,
  /^\s*[\w.$[\]"']+\s*(?:=|\+=|:=|==|===|!=)\s*\S/u,
];

/**
 * The line shapes above as few regexes: one per set of flags, the shapes anchored at the line start apart from
 * the others (so that the engine tries those at offset 0 only). A line matches one of these exactly when it
 * matches one of the shapes; it is read in three calls instead of one per shape.
 */
const OUTPUT_LINE_TESTS: readonly RegExp[] = (() => {
  const groups = new Map<string, RegExp[]>();
  for (const re of OUTPUT_LINE) {
    const key = `${re.flags} ${re.source.startsWith('^')}`;
    groups.set(key, [...(groups.get(key) ?? []), re]);
  }
  return [...groups.values()].map((list) => new RegExp(list.map((re) => `(?:${re.source})`).join('|'), list[0]!.flags));
})();

/** A line introducing pasted material ("日志如下：", "Here's the output:"). */
const PASTE_INTRO = new RegExp(
  '(?:log|logs|output|error|errors|trace|stack|stacktrace|traceback|result|results|message|diff|says' +
    '|printed|prints|shows|showed|got this|below|warns|pasted|forwarded|copied|日志|输出|报错|报|提示|错误|堆栈|结果|返回|打印|如下|下面' +
    '|贴|转|转发|复制|粘贴|截图|原文|写的|写着|讨论|聊天记录|对话|chat|thread|discussion|transcript' +
    '|回答|回复|answer|reply|response|chatgpt|claude|copilot|cursor|gemini|gpt' +
    '|信息)[^:\\n：]{0,20}[:：]\\s*$',
  'iu',
);

// A line naming the author of what follows: an issue-tracker or chat comment, a mail ("@alice commented on
// 3 Mar", "**Bob** wrote:", "Reply from carol:", "张三 评论：", "From: dave@example.com"). The block after it is
// someone else's words until a blank line.
const AUTHOR_HEADER = new RegExp(
  '^\\s*(?:[>*_#\\s-]*)(?:@?[\\w.-]+|\\*\\*[^*\\n]{1,40}\\*\\*|\\[[^\\]\\n]{1,40}\\])\\s+' +
    '(?:commented|wrote|replied|said|posted|reviewed|responded|added a comment|left a comment)\\b[^\\n]{0,60}$' +
    '|^\\s*(?:comment|reply|review|message|answer|response)\\s+(?:from|by)\\s+\\S[^\\n]{0,40}:?\\s*$' +
    '|^\\s*(?:from|to|cc|subject|sent|date):\\s+\\S' +
    '|^\\s*[\\p{Script=Han}\\w.@-]{1,20}\\s*(?:评论|回复|写道|留言)\\s*[:：]\\s*$' +
    '|^\\s*(?:#\\d+|issue\\s*#?\\d+|pr\\s*#?\\d+)\\b[^\\n]{0,80}(?:opened|commented|by)\\b',
  'iu',
);

// A line that is someone speaking: a sentence with a person in it ("以后这种报错你直接告诉我原因。").
const SPEECH_LINE = /(?:我|你|我们|咱们|\b(?:i|we|you|let's|please)\b).*[。！？.!?]\s*$/iu;

const QUOTE_LINE = /^\s*>/u;
const CHAT_SPEAKER = /^\s*[\p{Script=Han}\w.@-]{1,12}\s*[:：]\s*\S/u;
const INLINE_INTRO = /(?:输出|日志|报错|报错信息|output|log|logs|error|stack ?trace)\s*[:：]\s*$/iu;
const DOC_HEADING = /^\s*#{1,6}\s+\S/u;

/** True when the line of the offset is in a block introduced by an author's header. */
function quotedBlock(text: string, offset: number): boolean {
  const lines = text.slice(0, offset).split('\n');
  // So does a pasted document's section under its heading ("## Branching").
  for (let i = lines.length - 1; i >= 0 && lines[i]!.trim().length > 0; i -= 1)
    if (AUTHOR_HEADER.test(lines[i]!) || DOC_HEADING.test(lines[i]!)) return true;
  return false;
}

// The lines of recent texts: each quote of a candidate is read line by line by several checks.
const OUTPUT_LINES = new Map<string, boolean>();
const MAX_LINES = 256;

function isOutputLine(line: string): boolean {
  if (line.trim().length === 0) return false;
  let known = OUTPUT_LINES.get(line);
  if (known === undefined) {
    known = OUTPUT_LINE_TESTS.some((re) => re.test(line));
    if (OUTPUT_LINES.size >= MAX_LINES) OUTPUT_LINES.delete(OUTPUT_LINES.keys().next().value!);
    OUTPUT_LINES.set(line, known);
  }
  return known;
}

// The answers for the last text read: the steps of one candidate ask about the same quote offsets again.
let answeredText: string | null = null;
const answers = new Map<number, boolean>();

/** True when the offset lies in pasted code, a log, tool output, a quoted document or diff, fenced or not. */
export function inCodeOrOutput(text: string, offset: number): boolean {
  if (text !== answeredText) {
    answeredText = text;
    answers.clear();
  }
  let known = answers.get(offset);
  if (known === undefined) {
    known = readCodeOrOutput(text, offset);
    answers.set(offset, known);
  }
  return known;
}

function readCodeOrOutput(text: string, offset: number): boolean {
  const before = text.slice(0, offset);
  const fences = before.match(/^[^\S\n]*(?:```|~~~)/gmu)?.length ?? 0;
  if (fences % 2 === 1) return true;
  if (afterLeadIn(text, offset) === 'pasted') return true;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  if (isOutputLine(line)) return true;
  // "pytest 输出：FAILED tests/…": a line that introduces its own paste after a colon.
  const inline = /^(.*?(?:输出|日志|报错|output|log|logs|error)\s*[:：]\s*)(\S.*)$/iu.exec(line);
  if (inline && isOutputLine(inline[2]!)) return true;
  // A block after an introduction line ("报错如下：") is pasted until a blank line or, after pasted lines, a line
  // of speech; the line right after the introduction is always pasted.
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const previous = lines[lines.length - 1];
  if (previous !== undefined && PASTE_INTRO.test(previous)) return true;
  // Someone else's comment runs until a blank line, speech or not.
  // So does a pasted document's section under its heading ("## Branching").
  for (let i = lines.length - 1; i >= 0 && lines[i]!.trim().length > 0; i -= 1)
    if (AUTHOR_HEADER.test(lines[i]!) || DOC_HEADING.test(lines[i]!)) return true;
  if (AUTHOR_HEADER.test(line)) return true;
  // A chat transcript: lines of "name：message", two or more in a row ("张工：…\n李工：…").
  const following = lineEnd >= 0 ? text.slice(lineEnd + 1).split('\n')[0] : undefined;
  if (CHAT_SPEAKER.test(line) && [previous, following].some((l) => l !== undefined && CHAT_SPEAKER.test(l))) return true;
  // "pytest 输出：FAILED tests/…": the rest of a line after its own introduction is pasted.
  if (INLINE_INTRO.test(text.slice(lineStart, offset))) return true;
  if (SPEECH_LINE.test(line)) return false;
  let plain = false;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const previous = lines[i]!;
    // One blank line may follow an introduction ("从 Notion 复制过来的：" then the document, its title and items).
    if (previous.trim().length === 0) return i > 0 && PASTE_INTRO.test(lines[i - 1]!);
    if (PASTE_INTRO.test(previous)) return !plain || i === lines.length - 1;
    // A line of the user's own speech ends the scan; a plain line may be a pasted document's title.
    if (!isOutputLine(previous)) {
      if (SPEECH_LINE.test(previous) || plain) return false;
      plain = true;
    }
  }
  return false;
}

// A lead-in asking to review or edit a text ("帮我润色一下这段 PR 描述：", "can you review this commit message?").
const REVIEW_VERB = new RegExp(
  '润色|看看|看一下|看下|检查|改改|改一下|改下|审一下|审查|校对|优化一下|翻译|挑挑|' +
    '\\b(?:review|check|proofread|polish|look over|look at|go over|improve|rewrite|reword|translate|edit|fix)\\b',
  'iu',
);
// The text type it names: what follows is that text.
const TEXT_NOUN = new RegExp(
  '描述|段落|段话|文案|文档|说明|提交信息|邮件|公告|通知|注释|草稿|条款|规范|' +
    '\\b(?:readme|changelog|commit message|commit|description|paragraph|text|message|entry|docs?|documentation|comment|' +
    'email|wording|copy|announcement|release notes|section|draft|summary|adr|rfc|wiki page|snippet|policy|clause)\\b',
  'iu',
);
// A question about a text pointed at ("What does this commit mean?", "这段注释是什么意思？", "Is this ADR paragraph
// well written?"): what follows the question is that text.
const TEXT_DEICTIC = /这段|这个|这条|这篇|这份|下面(?:这|的)|以下|\b(?:this|that|these|the following)\b/iu;
const ASKS_ABOUT_TEXT = (lead: string): boolean => /[?？]\s*$/u.test(lead) && TEXT_DEICTIC.test(lead) && TEXT_NOUN.test(lead);

/**
 * M-5.6: the offset lies in the material a lead-in gives to be reviewed — its first line asks to review or edit a
 * text and names its type, or ends with a colon or question mark; the material is the block after its line break
 * (a line of speech there is the user's own when the lead-in names no text type). `pasted` when the block is set
 * off by a blank line or the offset is on its first line; `near` on a later line of a block right under the lead-in
 * (the user may have added a line of their own).
 */
function afterLeadIn(text: string, offset: number): 'pasted' | 'near' | null {
  const lead = leadInOf(text);
  if (lead === null || offset < lead.from || offset > lead.far) return null;
  // A later paragraph of a named text: held beside the material (the user may have added words of their own).
  if (offset > lead.to) return 'near';
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  if (!lead.named && SPEECH_LINE.test(text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd))) return null;
  return lead.setOff || lineStart <= lead.from ? 'pasted' : 'near';
}

interface LeadIn {
  /** Where the material starts and ends (the block after the lead-in, to the next blank line). */
  from: number;
  to: number;
  /** The end of the later paragraphs of a named text that hold no line of speech. */
  far: number;
  named: boolean;
  setOff: boolean;
}

// The lead-in of the last text read: each quote of a candidate asks about the same turn several times.
let leadText: string | null = null;
let leadFound: LeadIn | null = null;

function leadInOf(text: string): LeadIn | null {
  if (text === leadText) return leadFound;
  leadText = text;
  leadFound = null;
  const start = text.search(/\S/u);
  const breakAt = start < 0 ? -1 : text.indexOf('\n', start);
  if (breakAt < 0) return null;
  const lead = text.slice(start, breakAt);
  const asks = ASKS_ABOUT_TEXT(lead);
  if (!REVIEW_VERB.test(lead) && !asks) return null;
  const named = TEXT_NOUN.test(lead);
  if (!named && !/[:：?？]\s*$/u.test(lead)) return null;
  const skip = /\S/gu;
  skip.lastIndex = breakAt;
  const from = skip.exec(text)?.index ?? text.length;
  const blank = /\n[^\S\n]*\n/gu;
  blank.lastIndex = from;
  const to = blank.exec(text)?.index ?? text.length;
  // A named text may run on over blank lines (a commit's subject, then its body): its later paragraphs, while none
  // of them is a line of speech, are material too.
  let far = to;
  if (named) {
    for (const m of text.slice(to).matchAll(/\n[^\S\n]*\n((?:[^\n]*\S[^\n]*(?:\n|$))+)/gu)) {
      if (m.index !== far - to || m[1]!.split('\n').some((l) => SPEECH_LINE.test(l))) break;
      far = to + m.index + m[0].length;
    }
  }
  leadFound = { from, to, far, named, setOff: /\n[^\S\n]*\n/u.test(text.slice(breakAt, from + 1)) };
  return leadFound;
}

/**
 * True when the line of the offset touches someone else's pasted words (M-5.7): the line right before or after
 * it, with no blank line between, is a quoted line, an introduction of a paste or an author's header. (A log
 * or code line beside it is material the user comments on: "以后这种报错你直接告诉我原因。")
 */
export function nearPaste(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const before = lineStart > 0 ? text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1) : null;
  const after =
    lineEnd >= 0 ? text.slice(lineEnd + 1, text.indexOf('\n', lineEnd + 1) < 0 ? text.length : text.indexOf('\n', lineEnd + 1)) : null;
  if (afterLeadIn(text, offset) !== null) return true;
  // The user's own line of speech answers what was pasted ("我觉得可以，以后…").
  if (SPEECH_LINE.test(text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd))) return false;
  const pasted = (line: string | null, at: number): boolean =>
    line !== null &&
    line.trim().length > 0 &&
    (QUOTE_LINE.test(line) || PASTE_INTRO.test(line) || AUTHOR_HEADER.test(line) || quotedBlock(text, at));
  return pasted(before, Math.max(0, lineStart - 1)) || (lineEnd >= 0 && pasted(after, lineEnd + 1));
}

const QUOTE_PAIRS: readonly RegExp[] = [
  /"[^"\n]{1,400}"/gu,
  /\u201c[^\u201d\n]{1,400}\u201d/gu,
  /\u300c[^\u300d\n]{1,400}\u300d/gu,
  /\u300e[^\u300f\n]{1,400}\u300f/gu,
  /\u2018[^\u2019\n]{1,400}\u2019(?![\p{L}\p{N}])/gu,
  /(?<![\p{L}\p{N}])'[^'\n]{2,400}'(?![\p{L}\p{N}])/gu,
  /`[^`\n]{1,400}`/gu,
];

/** Ranges [start, end) of text inside quote marks or inline code, in the given text's offsets. */
export function quotedRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const re of QUOTE_PAIRS) {
    for (const m of matchesOf(re, text)) out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

export function insideRanges(ranges: readonly [number, number][], start: number, end: number): boolean {
  return ranges.some(([a, b]) => start >= a && end <= b);
}
