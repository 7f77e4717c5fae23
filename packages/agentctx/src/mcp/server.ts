import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { VERSION } from '../version.js';
import type { ToolContext } from './context.js';
import { registerGet } from './tools/get.js';
import { registerProject } from './tools/project.js';
import { registerRecord } from './tools/record.js';
import { registerRelated } from './tools/related.js';
import { registerSearch } from './tools/search.js';
import { registerSupersede } from './tools/supersede.js';
import { registerSyncClaudeMd } from './tools/sync-claudemd.js';

/**
 * The SDK builds an Ajv instance per server to validate elicitation answers. This server never
 * elicits, so none is built (it is a measurable part of start-up); a schema it were ever asked
 * to check is refused rather than waved through.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'agentctx does not validate JSON schemas (it never elicits input)',
  }),
};

const INSTRUCTIONS = `agentctx holds this project's context from earlier sessions: decisions, conventions, preferences, bugfixes, discoveries and the last handover. ctx_search (or ctx_related for a file) returns a compact index; ctx_get reads full records. Record new facts the developer states with ctx_record; replace outdated ones with ctx_supersede.`;

/** The seven tools of SPEC §5, exactly. */
export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'agentctx', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noElicitation },
  );
  registerSearch(server, ctx);
  registerGet(server, ctx);
  registerRecord(server, ctx);
  registerSupersede(server, ctx);
  registerProject(server, ctx);
  registerRelated(server, ctx);
  registerSyncClaudeMd(server, ctx);
  return server;
}
