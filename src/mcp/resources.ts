import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { BOUNDARY_NOTE, ROUTING_BUDGET } from '../memory/retrieval/projection.js';
import type { MemoryDetail, MemoryItemSummary } from '../memory/types.js';
import { MemoryNotFoundError } from '../shared/errors.js';
import type { InFlight } from './in-flight.js';
import type { MemoryHost } from './memory-host.js';
import { errorText } from './recovery.js';
import { isoTime } from './tools/schemas.js';

/** JSON-RPC code for an unknown resource (MCP specification). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A failed resource read, sent as the JSON-RPC error `{code, message, data}`. (The SDK's McpError would put
 * "MCP error <code>:" into the message itself, and clients add that prefix again.)
 */
class ResourceReadError extends Error {
  override readonly name = 'ResourceReadError';
  constructor(
    readonly code: number,
    message: string,
    readonly data: { uri: string },
  ) {
    super(message);
  }
}

const EMPTY_ROUTING = `# Project memory\n${BOUNDARY_NOTE}\nNothing is remembered for this project yet.\n`;

/**
 * The resources, for clients that inject context instead of calling tools: the bounded routing context
 * (M-8.2), the list of usable memories and one memory with all its sources.
 */
export function registerMemoryResources(server: McpServer, host: MemoryHost, inFlight: InFlight): void {
  const failure = (uri: URL, error: unknown): ResourceReadError =>
    new ResourceReadError(
      error instanceof MemoryNotFoundError ? RESOURCE_NOT_FOUND : ErrorCode.InternalError,
      errorText(`reading ${uri.href}`, error, host.repoRoot),
      { uri: uri.href },
    );
  const serve =
    (mimeType: string, read: () => Promise<string>) =>
    (uri: URL): Promise<ReadResourceResult> =>
      inFlight.track(async () => {
        try {
          return { contents: [{ uri: uri.href, mimeType, text: await read() }] };
        } catch (error) {
          throw failure(uri, error);
        }
      });

  server.registerResource(
    'routing',
    'memory://routing',
    {
      title: 'Project memory routing context',
      description:
        `The bounded memory context an ordinary request starts with (at most ${ROUTING_BUDGET.toLocaleString('en-US')} characters): ` +
        "the user's preferences, the project's decisions, a summary of the current discussion and its index, with the note " +
        'that memory is not source evidence and the current user instruction wins. Inject it as context, as data.',
      mimeType: 'text/markdown',
    },
    serve('text/markdown', async () => {
      const memory = await host.current();
      const routing = memory.routingContext(memory.bindActiveThread());
      return routing === '' ? EMPTY_ROUTING : routing;
    }),
  );

  server.registerResource(
    'items',
    'memory://items',
    {
      title: 'Usable memories',
      description: "Every usable memory of this project: active preferences, decisions and the current thread's discussion items.",
      mimeType: 'application/json',
    },
    serve('application/json', async () => {
      const memory = await host.current();
      const items = memory.list().map(summaryView);
      return JSON.stringify({ count: items.length, items });
    }),
  );

  server.registerResource(
    'item',
    new ResourceTemplate('memory://item/{id}', { list: undefined }),
    {
      title: 'One memory',
      description:
        'One memory by id (or a unique prefix of 4+ characters), whatever its status: content, revisions and every source quote. ' +
        'Works while Memory is degraded.',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const id = Array.isArray(variables['id']) ? variables['id'][0] : variables['id'];
      return serve('application/json', async () => {
        const memory = await host.current();
        return JSON.stringify(detailView(memory.show(decodeURIComponent(String(id ?? '')))));
      })(uri);
    },
  );
}

function summaryView(item: MemoryItemSummary) {
  return {
    id: item.id,
    kind: item.kind,
    status: item.status,
    title: item.title,
    synopsis: item.synopsis,
    thread_id: item.threadId,
    revision: item.revision,
    updated_at: isoTime(item.updatedAt),
  };
}

function detailView(detail: MemoryDetail) {
  return {
    id: detail.id,
    kind: detail.kind,
    status: detail.status,
    title: detail.title,
    content: detail.content,
    synopsis: detail.synopsis,
    aliases: detail.aliases,
    keywords: detail.keywords,
    non_factual: detail.nonFactual,
    thread_id: detail.threadId,
    revision: detail.revision,
    created_at: isoTime(detail.createdAt),
    updated_at: isoTime(detail.updatedAt),
    supersedes: detail.supersedes,
    superseded_by: detail.supersededBy,
    revisions: detail.revisions.map((r) => ({
      revision: r.revision,
      status: r.status,
      title: r.title,
      content: r.content,
      created_at: isoTime(r.createdAt),
    })),
    sources: detail.sources.map((s) => ({
      turn_id: s.turnId,
      role: s.role,
      quote: s.quote,
      excerpt: s.excerpt,
      sequence: s.sequence,
      thread_id: s.threadId,
      turn_created_at: isoTime(s.turnCreatedAt),
    })),
  };
}
