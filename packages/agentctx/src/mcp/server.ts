import { VERSION } from '../version.js';
import type { ToolContext } from './context.js';
import type { ServerInfo, ToolDef } from './protocol.js';
import { registerGet } from './tools/get.js';
import { registerProject } from './tools/project.js';
import { registerRecord } from './tools/record.js';
import { registerRelated } from './tools/related.js';
import { registerSearch } from './tools/search.js';
import { registerSupersede } from './tools/supersede.js';
import { registerSyncClaudeMd } from './tools/sync-claudemd.js';

const INSTRUCTIONS = `agentctx holds this project's context from earlier sessions: decisions, conventions, preferences, bugfixes, discoveries and the last handover. ctx_search (or ctx_related for a file) returns a compact index; ctx_get reads full records. Record new facts the developer states with ctx_record; replace outdated ones with ctx_supersede.`;

export const SERVER_INFO: ServerInfo = { name: 'agentctx', version: VERSION, instructions: INSTRUCTIONS };

/** The seven tools of CONTRACTS.md §mcp, exactly. */
export function createTools(ctx: ToolContext): ToolDef[] {
  const tools: ToolDef[] = [];
  registerSearch(tools, ctx);
  registerGet(tools, ctx);
  registerRecord(tools, ctx);
  registerSupersede(tools, ctx);
  registerProject(tools, ctx);
  registerRelated(tools, ctx);
  registerSyncClaudeMd(tools, ctx);
  return tools;
}
