import { literal } from '../output.js';
import { clipDisplay } from './table.js';

const MAIN_ARGUMENT = ['path', 'query', 'pattern', 'id', 'memory_id', 'summary'] as const;

/** `read_file src/calc.js · 42 lines`: the tool, its main argument and a few words on what came back. */
export function toolLine(name: string, argumentsText: string, output: string, width: number): string {
  let argument = '';
  try {
    const args = JSON.parse(argumentsText) as Record<string, unknown>;
    for (const key of MAIN_ARGUMENT) {
      if (typeof args[key] === 'string' && args[key] !== '') {
        argument = String(args[key]);
        break;
      }
    }
    if (name === 'read_file' && typeof args['startLine'] === 'number')
      argument += `:${args['startLine']}${typeof args['endLine'] === 'number' ? `-${args['endLine']}` : ''}`;
  } catch {
    argument = '';
  }
  const line = `${name}${argument ? ` ${argument.replace(/\s+/g, ' ')}` : ''} · ${toolOutcome(name, output)}`;
  return clipDisplay(literal(line), Math.max(20, width - 4));
}

function toolOutcome(name: string, output: string): string {
  if (output.startsWith('Error:')) return `error: ${output.slice(6).trim().split('\n')[0]!.slice(0, 80)}`;
  const lines = output.length === 0 ? 0 : output.split('\n').length;
  switch (name) {
    case 'read_file':
      return `${lines} line${lines === 1 ? '' : 's'}`;
    case 'search_text':
      return output.startsWith('No match') ? 'no match' : `${lines} hit${lines === 1 ? '' : 's'}`;
    case 'list_files':
      return output.startsWith('No files') ? 'no files' : `${lines} file${lines === 1 ? '' : 's'}`;
    case 'memory_search': {
      try {
        const hits = JSON.parse(output) as unknown[];
        return `${hits.length} memor${hits.length === 1 ? 'y' : 'ies'}`;
      } catch {
        return 'done';
      }
    }
    case 'memory_read': {
      try {
        const memory = JSON.parse(output) as { kind?: unknown; title?: unknown };
        if (typeof memory.kind === 'string' && typeof memory.title === 'string') return `${memory.kind} “${memory.title}”`;
      } catch {
        // Not the JSON memory_read answers with: the first line says what came back.
      }
      return output.split('\n')[0]!.slice(0, 80) || 'done';
    }
    case 'propose_patch':
    case 'revise_patch': {
      const id = /#(\d+)/.exec(output);
      return id ? `patch #${id[1]}` : output.split('\n')[0]!.slice(0, 80);
    }
    case 'report_finding':
      return 'recorded';
    default:
      return output.split('\n')[0]!.slice(0, 80) || 'done';
  }
}
