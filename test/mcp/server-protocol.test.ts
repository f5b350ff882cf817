import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../helpers/child.js';
import { byRole, roleOf, runCli } from '../helpers/cli.js';
import { dbPathOf, tempRepo, withRawDb } from '../helpers/temp-repo.js';
import { CLI, connectMcp, until } from './mcp-client.js';
import { DECISION, PREFERENCE, useFakeModel } from './scripted-model.js';

const { model, env } = useFakeModel();

describe('autopatch-j mcp: the protocol surface', () => {
  it('lists the tools with schemas and the resources; memory_forget only with --allow-forget', async () => {
    const repo = tempRepo();
    const plain = await connectMcp(repo);
    try {
      const tools = (await plain.client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['memory_read', 'memory_record_turn', 'memory_search', 'memory_status']);
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description!.length, tool.name).toBeGreaterThan(80);
        expect(tool.outputSchema, tool.name).toBeDefined();
      }
      const record = tools.find((t) => t.name === 'memory_record_turn')!;
      expect(record.inputSchema).toMatchObject({
        required: ['user', 'assistant'],
        properties: { intent: { enum: ['code_explain', 'general_chat'] }, user: { minLength: 1 } },
      });
      expect(tools.find((t) => t.name === 'memory_search')!.inputSchema).toMatchObject({
        required: ['query'],
        properties: { query: { maxLength: 256 } },
      });
      expect(tools.find((t) => t.name === 'memory_search')!.annotations).toMatchObject({ readOnlyHint: true });
      expect((await plain.client.listResources()).resources.map((r) => r.uri)).toEqual(['memory://routing', 'memory://items']);
      expect((await plain.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['memory://item/{id}']);
      const unknown = await plain.call('memory_forget', { id: 'mabcd' });
      expect(unknown.isError).toBe(true);
    } finally {
      await plain.close();
    }
    const forgetful = await connectMcp(repo, { args: ['--allow-forget'] });
    try {
      const forget = (await forgetful.client.listTools()).tools.find((t) => t.name === 'memory_forget');
      expect(forget?.annotations).toMatchObject({ destructiveHint: true });
    } finally {
      await forgetful.close();
    }
  });

  it('writes nothing but JSON-RPC to stdout and ends when stdin closes', async () => {
    const repo = tempRepo();
    const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ method: 'notifications/initialized' });
    send({
      id: 2,
      method: 'tools/call',
      params: { name: 'memory_record_turn', arguments: { user: '解释一下 parse', assistant: 'parse 读取输入。' } },
    });
    send({ id: 3, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'parse' } } });
    send({ id: 4, method: 'resources/read', params: { uri: 'memory://routing' } });
    child.stdin.end();
    const result = await collect(child, 30_000);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(4);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    // Answers may come in any order (JSON-RPC matches them by id); each request gets exactly one.
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id).sort()).toEqual([1, 2, 3, 4]);
    expect(result.stderr).toContain('autopatch-j mcp: serving');
    expect(result.stderr).toContain('1 memory job(s) stay queued until a model is configured');
    // The data folder it created ignores itself in git, as the CLI's does: the RAW conversation is never committed.
    expect(readFileSync(join(repo, '.autopatch-j', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it('a missing folder or an invalid setting is a usage error on stderr, with nothing on stdout', async () => {
    const missing = await runCli(['mcp', '--repo', join(tempRepo(), 'no-such-folder')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^autopatch-j mcp: --repo .*no-such-folder is not a folder/);
    expect(missing.stdout).toBe('');
    const invalid = await runCli(['mcp', '--repo', tempRepo()], { env: { ...env(), AUTOPATCH_LLM_EXTRA_BODY: '[1]' } });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/invalid setting AUTOPATCH_LLM_EXTRA_BODY/);
    expect(invalid.stdout).toBe('');
  });
});

describe('autopatch-j mcp: shutdown', () => {
  it('a termination signal ends the server at once, even with a model call in flight; no exit pass, nothing lost', async () => {
    const repo = tempRepo();
    model().always(byRole({ extraction: () => ({ hang: true }) }));
    const child = spawn(process.execPath, [CLI, 'mcp', '--repo', repo], {
      env: { PATH: process.env.PATH ?? '', ...env() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const done = collect(child, 30_000);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'memory_record_turn', arguments: { user: PREFERENCE, assistant: '好的' } } });
    send({ id: 3, method: 'tools/call', params: { name: 'memory_record_turn', arguments: { user: DECISION, assistant: 'Noted.' } } });
    // Two turns make extraction due: the background worker calls the model, which never answers.
    await until(async () => (model().requests.some((r) => roleOf(r) === 'extraction') ? true : undefined), 'the extraction call');
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('processing');
    withRawDb(dbPathOf(repo), (db) => {
      expect(db.prepare("SELECT count(*) AS n FROM turns WHERE state = 'completed'").get()).toEqual({ n: 2 });
      // The claimed batch goes back to the queue when its lease expires.
      expect(db.prepare('SELECT status FROM memory_jobs').all()).toEqual([{ status: 'leased' }, { status: 'leased' }]);
    });
  });
});
