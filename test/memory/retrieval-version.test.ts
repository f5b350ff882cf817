import { describe, expect, it } from 'vitest';
import {
  FREE_VERSION_ROW,
  TALK_VERSION_ROW,
  VERSION_ROW,
  asksVersion,
  statedVersionRows,
  versionRow,
} from '../../src/shared/search-answer-version.js';
import { withTitles } from '../helpers/seed-items.js';

describe('a question for a version needs an item that states a version of what it names (M-7.7)', () => {
  it('questions for a version: "which … version", "X version?", 哪个版本, 版本是多少; not version as a topic or a verb', () => {
    for (const q of [
      'which Node version do we run',
      'what version of Terraform',
      'Ruby version?',
      'Node 用哪个版本',
      'Erlang 版本是多少',
      'Redis 版本',
    ])
      expect(asksVersion(q), q).toBe(true);
    for (const q of ['how do we version the APIs', 'version control hooks', '版本控制用 git', '锁版本用什么工具', '新版本上线前要做什么'])
      expect(asksVersion(q), q).toBe(false);
  });

  it('stated versions: of the name before the number, glued to the name, of no named thing, or words of versions', () => {
    expect(statedVersionRows('Services run on Node 20 LTS.')).toContain(versionRow('nod'));
    expect(statedVersionRows('Build with python3.12 images')).toContain(versionRow('python'));
    expect(statedVersionRows('Terraform 1.7.x everywhere')).toContain(versionRow('terraform'));
    // A version of no named thing: "v2" alone, 版本 3, a scheme.
    expect(statedVersionRows('Webhooks post to /v2/events')).toContain(FREE_VERSION_ROW);
    expect(statedVersionRows('协议版本 3 起不再兼容')).toContain(FREE_VERSION_ROW);
    expect(statedVersionRows('Mobile builds follow semver.')).toContain(FREE_VERSION_ROW);
    // Words of versions with no version of a named thing.
    expect(statedVersionRows('Pin the toolchain version in the repo.')).toContain(TALK_VERSION_ROW);
    // A number of a unit, or a number with no name, is no version.
    expect(statedVersionRows('Retry 3 times, then wait 30 s.')).toEqual([]);
    expect(statedVersionRows('Sessions live in Valkey.')).toEqual([]);
    expect(statedVersionRows('Postgres 16 for storage')).toEqual([VERSION_ROW, versionRow('postgr')]);
  });

  it('a memory that states a version of another thing, or none, does not answer; one that states it does', async () => {
    await withTitles(
      [
        { kind: 'project_decision', title: 'Backend stack', content: 'The API is written in Elixir with Postgres 16.' },
        { kind: 'project_decision', title: 'Cache layer', content: 'Hot reads are cached in Valkey.' },
        { kind: 'project_decision', title: 'Terraform pin', content: 'Pin Terraform 1.7 in every module.' },
        { kind: 'project_decision', title: '构建镜像', content: '构建镜像统一用 Debian，编译器版本锁在 CI 配置里。' },
      ],
      (titles) => {
        // The subject is remembered; no version of it is.
        expect(titles('which Elixir version does the API target?')).toEqual([]);
        expect(titles('Valkey 版本')).toEqual([]);
        // A version of the thing asked about, and a question naming nothing in Latin letters, still find their memory.
        expect(titles('what version of Terraform')).toEqual(['Terraform pin']);
        expect(titles('Postgres version?')).toEqual(['Backend stack']);
        expect(titles('构建镜像的编译器用哪个版本')).toEqual(['构建镜像']);
      },
    );
  });
});
