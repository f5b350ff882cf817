import type { MemoryKind, RoutedItem } from '../../memory/types.js';
import type { CliContext } from '../context.js';
import { KIND_LABEL } from '../render/memory-views.js';
import { quotedData as data } from '../render/notices.js';
import { type CommandOutput, ok } from './command-output.js';

const QUOTE_CHARS = 80;

/**
 * `/why`: for the last answer of this session, the memories it was given (routing context), the searches it
 * made with their hits, and the memories it read — each with its id and the user's words it rests on.
 */
export function whyCommand(ctx: CliContext): CommandOutput {
  const last = ctx.session?.lastAnswer ?? null;
  if (last === null) return ok('No answer yet in this session: /why explains the memories behind the last answer.', { answer: null });
  const used = last.memoriesUsed;
  if (used === null) {
    return ok('The last answer came from a repair flow (an audit or a patch), which never reads Memory.', {
      turnId: null,
      routing: [],
      searched: [],
      read: [],
    });
  }
  const quotes = new Map<string, string>();
  const quoteOf = (id: string): string => {
    if (!quotes.has(id)) {
      let quote = '';
      try {
        const sources = ctx.memory.show(id).sources;
        quote = (sources.find((s) => s.role === 'user') ?? sources[0])?.quote ?? '';
      } catch {
        quote = '';
      }
      quotes.set(id, quote);
    }
    return quotes.get(id)!;
  };
  const line = (item: { id: string; kind: MemoryKind; title: string }): string => {
    const quote = quoteOf(item.id);
    const from = quote ? ` — from ${data(quote, QUOTE_CHARS)}` : '';
    return `  ${item.id}  ${KIND_LABEL[item.kind] ?? item.kind}  ${data(item.title, 60)}${from}`;
  };
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const lines: string[] = [];
  lines.push(
    used.routing.length === 0
      ? 'The last answer was given no memories in its context.'
      : `The last answer was given ${count(used.routing.length, 'memory', 'memories')} in its context:`,
    ...used.routing.map(line),
  );
  if (used.searched.length === 0) lines.push('It did not search Memory.');
  else {
    lines.push(`It searched Memory ${count(used.searched.length, 'time', 'times')}:`);
    for (const search of used.searched) {
      lines.push(`  ${data(search.query, 60)} → ${count(search.hits.length, 'hit', 'hits')}`);
      for (const hit of search.hits) lines.push(`  ${line(hit)}`);
    }
  }
  if (used.read.length === 0) lines.push('It read no memory.');
  else lines.push(`It read ${count(used.read.length, 'memory', 'memories')}:`, ...used.read.map(line));
  const withQuote = (item: RoutedItem): RoutedItem & { quote: string } => ({ ...item, quote: quoteOf(item.id) });
  return ok(lines.join('\n'), {
    turnId: last.turnId,
    routing: used.routing.map(withQuote),
    searched: used.searched,
    read: used.read.map(withQuote),
  });
}
