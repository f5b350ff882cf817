import type { ProjectInstructions } from '../../workspace/project-instructions.js';
import { literal } from '../output.js';

/** "AGENTS.md, src/AGENTS.md (cut to the budget)": the files a request carries, for the banner and doctor. */
export function instructionFilesText(instructions: ProjectInstructions): string {
  return instructions.files.map((f) => `${literal(f.path)}${f.cut ? ' (cut to the budget)' : ''}`).join(', ');
}

/** "CLAUDE.md: a link that leads outside the project (not followed)", one entry per skipped file. */
export function skippedInstructionsText(instructions: ProjectInstructions): string[] {
  return instructions.skipped.map((s) => `${literal(s.path)}: ${s.reason}`);
}
