import { describe, expect, it } from 'vitest';
import { askedOptions } from '../../src/shared/search-answer-types.js';
import { withTitles } from '../helpers/seed-items.js';

const options = (q: string): string[] => askedOptions(q).map((g) => g.term);

describe('a question offering a choice needs an item that names one of its options (M-7.7)', () => {
  it('the options: the words either side of 还是, 或者, "or", "vs", within their clause', () => {
    expect(options('消息序列化用 Avro 还是 Protobuf')).toEqual(['avro', 'protobuf']);
    expect(options('Jest vs Vitest')).toEqual(['jest', 'vitest']);
    expect(options('log level: info or debug?')).toEqual(['info', 'debug']);
    // The word of full weight nearest the separator: "mode" names the kind of option.
    expect(options('session storage sticky mode or shared mode')).toEqual(['sticky', 'shar']);
    expect(options('we have three regions, primary or replica')).toEqual(['primary', 'replica']);
  });

  it('no options: 还是 as "still", a negation, "or" inside a clause that asks, options said only in Chinese', () => {
    for (const q of [
      '还是用 Gradle 吗',
      'retry or not',
      'should reviewers approve or comment first',
      'which header do requests or responses carry',
      '日志放本地还是集中收集',
      'cache warmup',
    ]) {
      expect(options(q), q).toEqual([]);
    }
  });

  it('a memory about the subject that names neither option does not answer the choice; one that names one does', async () => {
    await withTitles(
      [
        { kind: 'project_decision', title: 'Kafka for billing events', content: 'Billing events are published to Kafka.' },
        { kind: 'project_decision', title: '前端包管理', content: '前端统一用 Bun 装依赖和跑脚本。' },
        { kind: 'project_decision', title: 'Container base image', content: 'Service images are built FROM a Debian slim base.' },
      ],
      (titles) => {
        // The subject is remembered; the options asked about are not.
        expect(titles('Kafka billing events: Avro or JSON Schema')).toEqual([]);
        expect(titles('前端包管理用 Yarn 还是 Deno')).toEqual([]);
        // The same subject asked about otherwise is still found, and so is a memory that names one option.
        expect(titles('Kafka billing events')).toEqual(['Kafka for billing events']);
        expect(titles('前端装依赖用 npm 还是 Bun')).toEqual(['前端包管理']);
        expect(titles('service base image: Alpine vs Debian')).toEqual(['Container base image']);
      },
    );
  });
});
