// The official MCP SDK client over stdio against a built `agentctx mcp`, for the benchmarks that
// time the server as Claude Code runs it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface Connection {
  client: Client;
  transport: StdioClientTransport;
  /** The server's process id (for its memory in /proc). */
  pid: number;
}

interface Spawn {
  /** The Node to run it with (this one by default). */
  node?: string;
  /** Node options before the bin (`-r preload.cjs`, `--cpu-prof`…). */
  pre?: readonly string[];
  bin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stderr?: 'ignore' | 'inherit' | 'pipe';
  name?: string;
}

/** Spawn the server and finish the handshake. */
export async function connect(s: Spawn): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: s.node ?? process.execPath,
    args: [...(s.pre ?? []), s.bin, 'mcp'],
    cwd: s.cwd,
    env: s.env as Record<string, string>,
    stderr: s.stderr ?? 'ignore',
  });
  const client = new Client({ name: s.name ?? 'agentctx-bench', version: '0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid ?? 0 };
}

/** A tool call's JSON result; a tool error throws with the server's text. */
export async function callJson<T = unknown>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '';
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text) as T;
}
