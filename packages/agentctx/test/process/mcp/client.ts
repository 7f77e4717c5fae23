import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from '../../support/cli.js';

/** A real MCP client talking to the built `agentctx mcp` over stdio. */
export interface McpSession {
  client: Client;
  /** Anything the server wrote to stderr. */
  stderr: () => string;
  /** Transport errors, e.g. a stdout line that is not a JSON-RPC message. */
  errors: Error[];
  /** The server process's id. */
  pid: number | null;
  /** Call a tool and parse its one JSON text block. */
  call: (
    name: string,
    args?: Record<string, unknown>,
  ) => Promise<{ isError: boolean; json: Record<string, unknown>; text: string }>;
  close: () => Promise<void>;
}

export async function startMcp(cwd: string, env: NodeJS.ProcessEnv): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const errors: Error[] = [];
  const client = new Client({ name: 'agentctx-test', version: '0.0.0' });
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  const call: McpSession['call'] = async (name, args = {}) => {
    const res = await client.callTool({ name, arguments: args });
    const content = res.content as { type: string; text?: string }[];
    if (content.length !== 1 || content[0]?.type !== 'text') {
      throw new Error(`expected one text block, got ${JSON.stringify(res)}`);
    }
    const text = content[0].text ?? '';
    return { isError: res.isError === true, json: JSON.parse(text) as Record<string, unknown>, text };
  };
  return { client, stderr: () => stderr, errors, pid: transport.pid, call, close: () => client.close() };
}
