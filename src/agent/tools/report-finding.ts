import { z } from 'zod';
import { resolveInRepo } from '../../workspace/repo-paths.js';
import { defineTool } from './tool.js';

export const reportFinding = defineTool({
  name: 'report_finding',
  description: 'Record one audit finding (a problem in the code), with the file, line and severity.',
  schema: z.strictObject({
    path: z.string().min(1),
    line: z.number().int().min(1).nullable().default(null),
    severity: z.enum(['info', 'low', 'medium', 'high']),
    message: z.string().min(1).max(2000),
  }),
  run(finding, { repoRoot, workspace }) {
    resolveInRepo(repoRoot, finding.path);
    workspace.findings.push(finding);
    return `Finding ${workspace.findings.length} recorded.`;
  },
});
