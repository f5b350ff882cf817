import type { Piece } from './clauses.js';
import {
  EN_ATTRIBUTION,
  EN_DECIDING,
  EN_LONE_ADVERB,
  EN_OPENERS,
  GROUP,
  GROUP_OWNER,
  HAN,
  JOINT,
  NOT_REPORTER,
  OWN_SUBJECT_ADVERBS,
  P,
  PARTY_OBJECT,
  PARTY_MADE,
  REPORTING_BEFORE,
  ATTRIBUTION_AFTER,
  SPEAKER_FILLERS,
} from './phrases.js';
import * as L from './lexicon.js';
import { tagged } from './pos.js';
import { type Act, overlaps, Sentence, wordsOf } from './sentence.js';
import { fold, type Hit, Span } from './words.js';

/** Who speaks (M-5.6): the user, we, this project — or someone else. */

/** The reason the act belongs to someone else (a third party, reported speech), or null. */
export function thirdParty(s: Sentence, act: Act): string | null {
  const text = s.span.text;
  // "Cursor 提了个建议，…，我看了觉得可以，就这么定了": the user's own clause between ends what was reported.
  const ownClause = (from: number): boolean => {
    for (let i = s.clauseOf(from) + 1; i <= act.clause; i += 1) if (OWN_OPENING.test(s.clauseText(i))) return true;
    return false;
  };
  if (s.hits(P.reportingFrames, 0, act.hit.index).some((h) => h.end <= act.hit.index)) return 'reported speech';
  // "发行商要求跨平台，所以 lobby 改为 EOS", "the publisher requires cross-play, so …": a clause opened by a word of
  // concluding after another party's requirement is the user's own conclusion (a party's words, 说 / said, run on).
  const concluded = (from: number): boolean => {
    for (let i = s.clauseOf(from) + 1; i <= act.clause; i += 1) if (CONCLUSION_OPENING.test(s.clauseText(i))) return true;
    return false;
  };
  const owners = s.hits(P.own);
  const things = s.hits(P.notParties);
  const parties = s.hits(P.thirdParties, 0, act.hit.index).filter(
    (h) =>
      h.end <= act.hit.index &&
      !overlaps(h, act.hit) &&
      !owners.some((o) => o.index <= h.index && o.end >= h.end) &&
      !things.some((t) => t.index <= h.index && t.end >= h.end) &&
      // "跟运维确认过了": the object of a preposition is not who speaks.
      !PARTY_OBJECT.test(text.slice(Math.max(0, h.index - 8), h.index)) &&
      // "官方出的术语表": a party that made the thing named after it is no speaker.
      !PARTY_MADE.test(text.slice(h.end, h.end + 6)) &&
      !attributive(s, h, act),
  );
  const last = [...parties].reverse().find((h) => !ownClause(h.index));
  // "我们和后端组一起决定", "we and the platform team agreed": a joint act is ours too.
  const joint = last !== undefined && JOINT.test(text.slice(0, last.index));
  const reasonOnly =
    last !== undefined && concluded(last.index) && !s.hits(P.reporting, last.end, act.hit.index).some((r) => SAYING.test(r.text));
  if (last && !joint && !reasonOnly) {
    if (s.hits(P.reporting, last.end, act.hit.index).length > 0) return 'someone else said it';
    if (s.hits(P.own, last.end, act.hit.index).length === 0) return 'someone else decided or wants it';
  }
  // "移动端团队决定…", "客户那边要求…": a named group that is not ours.
  const group = GROUP.exec(text.slice(ownStart(s, act), act.hit.index));
  if (group && !GROUP_OWNER.test(group[1]!)) return 'another group decided or wants it';
  for (const rep of s.hits(P.reporting, 0, act.hit.index)) {
    if (rep.end > act.hit.index || ownClause(rep.index)) continue;
    if (!SAYING.test(rep.text) && concluded(rep.index)) continue;
    const c = s.clauses[s.clauseOf(rep.index)]!;
    // "最低版本提到 15", "超时提到 30 秒": a verb ending in 到 before a number raises a value to it, it reports nothing.
    if (/到$/u.test(rep.text) && /^\s*[vV]?\d/u.test(text.slice(rep.end))) continue;
    // "讲 Airflow 的时候…": a verb of saying inside a condition clause is what the rule is about.
    if (s.isCondition(s.clauseOf(rep.index))) continue;
    // "/remember 讲…": a command word before it is no speaker.
    const subject = text
      .slice(c.start, rep.index)
      .replace(/^\s*\/[a-z-]+/u, '')
      .trim();
    if (subject.length === 0) continue;
    // "any endpoint that writes data": a verb in a relative clause describes its noun, it reports nothing.
    if (!HAN.test(rep.text) && /\b(?:that|which)\s*$/u.test(subject)) continue;
    // "大家都觉得…": other people as the subject of a verb of saying or thinking, whatever else "大家" may be.
    if (HAN.test(rep.text) && OTHER_PRONOUNS.some((o) => subject.includes(o))) return 'reported speech';
    // "我觉得", "我一直说" are mine; "我舍友说", "我们组长说" name someone else behind the pronoun.
    const owned = s.hits(P.own, c.start, rep.index).filter((h) => h.end <= rep.index);
    // "our investors want us to …": a possessive names someone else; only I, we and you speak for themselves.
    if (
      owned.length > 0 &&
      !HAN.test(subject) &&
      !/\b(?:our|my)\s+(?!team\b|project\b|repo\b|codebase\b|service\b|app\b)\w+/u.test(subject)
    )
      continue;
    if (owned.length > 0) {
      let rest = subject;
      for (const o of owned) rest = rest.replace(o.text, ' ');
      rest = rest.replace(OWN_SUBJECT_ADVERBS, ' ').replace(/[\s\p{P}]/gu, '');
      if (rest.length === 0) continue;
      // "另外跟你说下": beside the pronoun only a preposition or a conjunction, no noun naming a person.
      if (HAN.test(rest) && !namesSomeone(rest)) continue;
      // "我看了觉得可以", "我想了想觉得…": a completed act of the pronoun's own is still the user speaking.
      if (Array.from(rest).length <= 3 && /[了过]$/u.test(rest)) continue;
    }
    if (NOT_REPORTER.test(subject)) continue;
    if (HAN.test(subject) && owned.length === 0 && !namesSomeone(subject)) continue;
    // "还是说一下：…", "再说一遍": a subject of discourse words only is the user speaking.
    if (subject.replace(SPEAKER_FILLERS, '').replace(/[\s\p{P}]/gu, '').length === 0) continue;
    return 'reported speech';
  }
  // English verbs of deciding need us as their subject: "Netflix decided …", "Alice agreed …" are someone else.
  if (!HAN.test(act.hit.text) && EN_DECIDING.some((v) => act.hit.text.includes(v))) {
    const clause = s.clauses[act.clause]!;
    const subject = wordsOf(text.slice(clause.start, act.hit.index)).filter((w) => !EN_OPENERS.has(w));
    const ownSubject =
      owners.some((o) => o.index >= clause.start && o.end <= act.hit.index) || owners.some((o) => o.index === act.hit.index);
    if (subject.length > 0 && !ownSubject && !EN_LONE_ADVERB.test(subject.join(' '))) {
      return 'someone else decided it';
    }
  }
  // "…, says my manager", "…，这是老板定的": a party after the act is its speaker only beside a verb of saying or
  // deciding ("says my manager", "老板定的"); "附上官方文档链接" names a kind of document, not a speaker.
  if (EN_ATTRIBUTION.test(text.slice(act.hit.end))) return 'attributed to someone else';
  for (const h of s.hits(P.thirdParties, act.hit.end)) {
    if (s.clauseOf(h.index) === act.clause && h.index <= act.hit.end) continue;
    const before = text.slice(Math.max(act.hit.end, h.index - 12), h.index);
    const after = text.slice(h.end, h.end + 8);
    if (
      REPORTING_BEFORE.test(before) ||
      ATTRIBUTION_AFTER.test(after) ||
      s.hits(P.reporting, h.end, h.end + 6).some(
        // "…，运维说集群他们没经验" gives a reason of its own; "…，老板说的" names who said the act.
        (r) => r.index - h.end <= 3 && text.slice(r.end).replace(/[\s\p{P}的了]/gu, '').length <= 4,
      )
    )
      return 'attributed to someone else';
  }
  return null;
}

const ATTRIBUTIVE = new Set(L.ATTRIBUTIVE_PARTIES);
const SAYING_WORDS = new Set([...L.REPORTING.zh, ...L.ADVISING_VERBS.zh]);
/**
 * "官方镜像优先", "社区插件不要装", "官方的 lint 规则全开": a party word right before a noun (的 between or not) modifies
 * it — an official image, a community plugin — and says nothing ("官方说", "官方建议" are verbs of saying; "官方文档说"
 * is read as the noun phrase's report).
 */
function modifiesNoun(text: string, party: string, end: number): boolean {
  if (!ATTRIBUTIVE.has(party)) return false;
  const after = text.slice(end, end + 16).replace(/^\s*(?:的\s*)?/u, '');
  const first = tagged(after)?.[0];
  if (!first || SAYING_WORDS.has(first.word)) return false;
  return first.tag === 'eng' || (first.tag.startsWith('n') && first.tag !== 'nr');
}

/**
 * A party word modifying a noun (modifiesNoun) that then says nothing up to the act: "官方文档里说…" is still the
 * report of the noun phrase, and "官方镜像默认用 root 跑" — what an official thing does by default — describes it.
 */
function attributive(s: Sentence, h: Hit, act: Act): boolean {
  if (!modifiesNoun(s.span.text, h.text, h.end) || /默认|default/u.test(act.hit.text)) return false;
  const between = s.span.text.slice(h.end, act.hit.end);
  return s.hits(P.reporting, h.end, act.hit.end).length === 0 && !L.ADVISING_VERBS.zh.some((v) => between.includes(v));
}

const CONCLUSION_OPENING = /^[\s\p{P}]*(?:所以|因此|因而|于是|(?:so|therefore|hence|that's why|which is why)(?![\p{L}]))/u;
const SAYING = /说|讲|告诉|提到|said|says|told|tell|mentioned/u;
// ("…, and we're adopting that": a conjunction may open the clause before its subject.)
const OWN_OPENING = /^[\s\p{P}]*(?:那|那么|所以|那就|好|而|so|then|ok|and)?[\s,，]*(?:我们|我|咱们|你|(?:we|i|you|let's)(?![\p{L}]))/u;

/**
 * True when a Chinese subject before a verb of saying names someone other than the user: a party of the
 * lexicon, a third-person pronoun, a group, or any noun (pos.ts tags n, nr: "大佬", "面试官"). "走之前说一句：", "另外跟你说下" have
 * no such subject: the user is speaking.
 */
function namesSomeone(subject: string): boolean {
  if (P.thirdParties.has(new Span(subject)) || /[他她]/u.test(subject) || GROUP.test(subject)) return true;
  if (OTHER_PRONOUNS.some((o) => subject.includes(o))) return true;
  // "Android 的 minSdk 提到 24": a subject whose head is a name in Latin letters after 的 is a thing's attribute.
  if (/的\s*[a-z][\w.-]*\s*$/u.test(subject)) return false;
  if (/[a-z]{2,}/u.test(subject)) return true;
  return (tagged(subject) ?? []).some((t) => t.tag.startsWith('n'));
}

const OTHER_PRONOUNS = L.ZH_OTHER_PRONOUNS;

/** Where the user's own words start before the act: after the last clause that opens with I, we or you. */
function ownStart(s: Sentence, act: Act): number {
  for (let i = act.clause; i > 0; i -= 1) if (OWN_OPENING.test(s.clauseText(i))) return s.clauses[i]!.start;
  return 0;
}

/** A previous line that introduces someone else's words ("同事在群里说：", "My manager wrote:"). */
export function isReportingFrame(text: string, piece: Piece): boolean {
  const raw = text.slice(piece.start, piece.end).trimEnd();
  if (!/[:：]$/u.test(raw)) return false;
  const span = new Span(fold(raw));
  if (P.reportingFrames.has(span)) return true;
  if (!P.reporting.has(span)) return false;
  return P.thirdParties.has(span) || !P.own.has(span);
}
