import { assembleProjectProfile } from '../../core/profile/project-profile.js';
import type { ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';

const description = `Overview of the current project: its name and id, detected stack, package manager, build/test/lint commands, entry points, workspaces, how many current records of each type are stored, and when the last session ran. Call it once at the start of work in an unfamiliar repository, or when you need the project's commands.`;

export function registerProject(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_project',
    title: 'Project profile',
    description,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {},
    run(): Json {
      const { app } = ctx;
      return { ...assembleProjectProfile(app.db, app.project.id, app.project.name) };
    },
  });
}
