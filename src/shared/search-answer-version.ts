/**
 * The version answer type of the ranked search (M-7.7, shared/search-answer-types). A question for the version of
 * something ("which Go version", "MySQL 版本", "Node 用哪个版本") is answered only by a text that states a version of a
 * thing the question names ("Pin Go 1.22", "MySQL 8.0"), a version of nothing named ("paths start with /v1", "版本
 * 2.3", semver) or words of versions with no version of another thing ("pin the toolchain version"): "which Go version
 * does the server target" is not answered by "the server is Go with Postgres 16", which states a version of Postgres.
 */

import { wordGroups } from './search-words.js';

/**
 * The content rows of an item whose text states a version: VERSION_ROW for any version or word of versions, and the
 * prefix of the rows of a version of a named thing (FREE_VERSION_ROW for a version of no named thing, TALK_VERSION_ROW
 * for words of versions in a text that states no version of a named thing).
 */
export const VERSION_ROW = '#version';
export const FREE_VERSION_ROW = '#version:';
export const TALK_VERSION_ROW = '#version:~';

/** The row of a version of the thing indexed as `term` ("go", "mysql"). */
export function versionRow(term: string): string {
  return `${VERSION_ROW}:${term}`;
}

// Units a number is said with: "Postgres 16" is a version, "retries 3 times", "cache 30 s" and "3 个副本" are not.
const UNIT_AFTER =
  '(?:%|个|次|天|日|年|月|周|分钟|分|小时|秒|毫秒|倍|条|台|行|人|万|亿|千|百|' +
  '(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|months?|years?|x|times|[kmgt]b|k|px|rps|qps|' +
  'req|requests?|rows?|items?|users?|replicas?|pods?|instances?|workers?|nodes?|threads?|connections?|retries|attempts?|' +
  'percent|mb/s)\\b)';
/**
 * A version: v and a number (v2, v1.4), or a number with dots (1.22, 8.0.x), or a whole number after a name (Postgres 16,
 * Tauri 2, Node 20), optionally with "+" (Java 17+). The name before it, when Latin, is what the version is of.
 */
const VERSION = new RegExp(
  '(?:(?<name>[\\p{Script=Latin}][\\p{Script=Latin}\\p{N}+#]*(?:[.-][\\p{Script=Latin}\\p{N}+#]+)*)(?:\\s+|@))?' +
    '(?<![\\p{L}\\p{N}_.])(?<number>v\\d+(?:\\.(?:\\d+|x))*|\\d+(?:\\.(?:\\d+|x))*\\+?)' +
    `(?![\\p{L}\\p{N}]|\\.\\d|\\s*${UNIT_AFTER})`,
  'giu',
);
/** A version written onto its name: python3.11, go1.22, cuda12, vue3 (two letters or more, then the number). */
const GLUED_VERSION = /(?<![\p{L}\p{N}_.-])(?<name>\p{Script=Latin}{2,})(?<number>\d+(?:\.\d+)*)(?![\p{L}\p{N}_]|\.\d)/gu;
// Words that say "version" before a number: their number is the version of no named thing (version 3, release 2.1).
const VERSION_WORDS = /^(?:v|ver|version|versions|release|releases|rev|revision|api|schema|protocol|format)$/iu;
// A Chinese word for a version right before the number (版本 2.3, 版本号 1.4, 第 2 版).
const ZH_VERSION_BEFORE = /(?:版本号?|版|第)\s*$/u;
/** A scheme of versions names no thing's version and answers a question for one (semver, a commit SHA, latest, LTS). */
const VERSION_SCHEMES = /\b(?:semver|calver|semantic\s+version\w*|sha|lts|latest|stable|nightly)\b|语义化版本|短\s*sha/iu;
/** Words of versions: a text that says them is about the versions of something (版本, release, 发版). */
const VERSION_TALK = /\b(?:versions?|versioned|versioning|releases?|released|upgrade\w*|pin|pinned|pins)\b|版本|发版|升级|锁定/iu;
/** Version rows an item keeps, at most (bounded rows per item). */
const MAX_VERSION_ROWS = 12;

/**
 * The version rows a text states: VERSION_ROW when it states a version or talks of versions, a named thing's row for
 * each indexed form of the name before a version (Go 1.22: `#version:go`; MySQL 8.0: `#version:sql`, `#version:mysql`),
 * FREE_VERSION_ROW for a version of no named thing (v1 alone, a dotted number alone, 版本 2, semver), and
 * TALK_VERSION_ROW when it talks of versions (版本, release, pinned) but states the version of no named thing: what it
 * says of versions is not said of another thing. A whole number with no name and no "v" is no version.
 */
export function statedVersionRows(text: string): string[] {
  const rows = new Set<string>();
  const normalized = text.normalize('NFKC');
  const named = new Set<string>();
  if (VERSION_SCHEMES.test(normalized)) rows.add(VERSION_ROW).add(FREE_VERSION_ROW);
  for (const match of normalized.matchAll(VERSION)) {
    const { name, number } = match.groups as { name?: string; number: string };
    const bare = /^\d+\+?$/u.test(number);
    if (name === undefined || VERSION_WORDS.test(name)) {
      if (!bare || name !== undefined || ZH_VERSION_BEFORE.test(normalized.slice(0, match.index))) {
        rows.add(VERSION_ROW).add(FREE_VERSION_ROW);
      }
      continue;
    }
    named.add(name);
  }
  for (const match of normalized.matchAll(GLUED_VERSION)) named.add(match.groups!.name!);
  if (VERSION_TALK.test(normalized)) rows.add(VERSION_ROW).add(named.size === 0 ? TALK_VERSION_ROW : VERSION_ROW);
  for (const name of named) {
    rows.add(VERSION_ROW);
    for (const group of wordGroups(name)) {
      for (const form of [group.term, ...group.alternatives]) {
        if (rows.size < MAX_VERSION_ROWS) rows.add(versionRow(form));
      }
    }
  }
  return [...rows];
}

/**
 * A question for a version: "version" asked with which / what ("which Go version", "what version of Node"), before a
 * verb or at the end of the query ("the Node version we use", "MySQL version?"); 版本 asked with 哪个 / 什么 / 几
 * ("Node 用哪个版本") or before what is asked of it ("Python 版本是多少", "MySQL 版本"). Not "how do we version the
 * modules", "version control" or 版本管理: a version as the topic of another question.
 */
const ASKS_VERSION = new RegExp(
  [
    '\\b(?:which|what)\\b[^.?!,;]{0,40}\\bversions?\\b' +
      '(?!\\s+(?:control|bump\\w*|history|polic\\w*|scheme|strateg\\w*|management|naming|numbering|format))',
    '\\bversions?\\s+(?:of|do|does|did|is|are|was|should|will|we|to|used|pinned|targeted|required|supported)\\b',
    '\\bversions?\\s*(?:[?？]|$)',
    '(?:哪个|哪一|哪|什么|啥|几)[^，。？?,;；]{0,8}?版本',
    '(?<![大小新旧老各多发锁])版本号?(?:是|用|选|定|要求|多少|为|\\s*[？?]|\\s*$)',
  ].join('|'),
  'iu',
);
const LATIN = /\p{Script=Latin}/u;
const VERSION_WORD = /^(?:version|versions|版本|版本号)$/u;

/** True when the query asks for a version (see ASKS_VERSION). */
export function asksVersion(query: string): boolean {
  return ASKS_VERSION.test(query.normalize('NFKC'));
}

/**
 * The rows one of which answers a question for a version. A query that names things in Latin letters ("which Go
 * version", "MySQL 版本") asks for the version of one of them: a named thing's row for each indexed form of its words,
 * FREE_VERSION_ROW or TALK_VERSION_ROW. A query that names none ("编译器版本是多少") is answered by any version (VERSION_ROW): its Chinese
 * words are most often said otherwise where the version is written (Go 1.22).
 */
export function askedVersionRows(query: string): string[] {
  const groups = wordGroups(query).filter((g) => !VERSION_WORD.test(g.term));
  if (!groups.some((g) => LATIN.test(g.term))) return [VERSION_ROW];
  const rows = new Set<string>([FREE_VERSION_ROW, TALK_VERSION_ROW]);
  for (const group of groups) {
    rows.add(versionRow(group.term));
    for (const alternative of group.alternatives) rows.add(versionRow(alternative));
  }
  return [...rows];
}
