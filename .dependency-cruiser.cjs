/**
 * The layers of autopatch-j, enforced in `npm test` (npm run lint:layers):
 *
 *   cli, mcp → agent → memory | llm | workspace → config → shared
 *
 * and inside memory/:  manager → pipeline → retrieval → store | lifecycle → db → types | paths (the manager
 * reaches the pipeline's worker through worker-host.ts, which loads it on first use).
 * `memory/paths.ts` names the data folder; it imports nothing of the project, so every layer may use it.
 * Nothing below a layer imports above it; nothing imports in a circle.
 */
const layer = (name, path, mayNotImport) => ({
  name,
  severity: 'error',
  comment: `${path} must not import ${mayNotImport}`,
  from: { path },
  to: { path: mayNotImport },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'no import cycles', from: {}, to: { circular: true } },
    layer('shared-is-the-bottom', '^src/shared/', '^src/(?!shared/)'),
    layer('config-above-shared-only', '^src/config/', '^src/(cli|mcp|agent|memory|llm|workspace)/'),
    layer('llm-below-agent', '^src/llm/', '^src/(cli|mcp|agent|memory|workspace)/'),
    layer('workspace-below-agent', '^src/workspace/', '^src/(cli|mcp|agent|llm)/|^src/memory/(?!paths\\.ts$)'),
    layer('memory-below-agent', '^src/memory/', '^src/(cli|mcp|agent|workspace)/'),
    layer('agent-below-front-ends', '^src/agent/', '^src/(cli|mcp)/'),
    layer('mcp-is-not-cli', '^src/mcp/', '^src/cli/'),
    // Inside memory/: the manager is the facade on top; pipeline above retrieval; retrieval above store and
    // lifecycle; those two above db/; types and paths at the ground.
    layer('memory-parts-below-manager', '^src/memory/(db|lifecycle|store|pipeline|retrieval)/', '^src/memory/(manager|worker-host)'),
    // worker-host.ts is the manager's lazy handle on the pipeline: only the manager holds one.
    layer('worker-host-is-the-managers', '^src/(?!memory/manager\\.ts$)', '^src/memory/worker-host'),
    layer('retrieval-below-pipeline', '^src/memory/retrieval/', '^src/memory/pipeline/'),
    layer('store-below-retrieval', '^src/memory/store/', '^src/memory/(pipeline|retrieval|lifecycle)/'),
    layer('lifecycle-below-retrieval', '^src/memory/lifecycle/', '^src/memory/(pipeline|retrieval|store)/'),
    layer('db-is-the-ground', '^src/memory/db/', '^src/memory/(?!db/|types\\.ts$|paths\\.ts$)'),
    layer('types-and-paths-at-the-ground', '^src/memory/(types|paths)\\.ts$', '^src/memory/(?!types\\.ts$)'),
    {
      name: 'no-evaluation-in-the-product',
      severity: 'error',
      comment: 'the evaluation runner lives outside src/ and is never compiled into dist/',
      from: { path: '^src/' },
      to: { path: '^(bench|quality|tools|test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
