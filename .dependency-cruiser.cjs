/**
 * The layers of autopatch-j, enforced in `npm test` (npm run lint:layers):
 *
 *   cli, mcp → agent → memory | llm | workspace → config → shared
 *
 * and inside memory/:  manager → pipeline → retrieval → store → connection / schema / types.
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
    layer('workspace-below-agent', '^src/workspace/', '^src/(cli|mcp|agent|memory|llm)/'),
    layer('memory-below-agent', '^src/memory/', '^src/(cli|mcp|agent|workspace)/'),
    layer('agent-below-front-ends', '^src/agent/', '^src/(cli|mcp)/'),
    layer('mcp-is-not-cli', '^src/mcp/', '^src/cli/'),
    // Inside memory/: the manager is the facade; the pipeline uses retrieval and store; retrieval uses store.
    layer('memory-parts-below-manager', '^src/memory/(store|pipeline|retrieval)/', '^src/memory/manager'),
    layer('retrieval-below-pipeline', '^src/memory/retrieval/', '^src/memory/pipeline/'),
    layer('store-is-the-data-layer', '^src/memory/store/', '^src/memory/(pipeline|retrieval|manager|status|export|clear)'),
    layer('data-core-below-store', '^src/memory/(connection|schema|types)', '^src/memory/(store|pipeline|retrieval|manager)'),
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
