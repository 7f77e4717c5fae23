import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Builds Claude Code transcripts in the JSONL shapes the real client writes (see
 * docs CLAUDE-CODE.md "Transcripts"): string user prompts, one assistant line per content
 * block sharing a message id, tool_result user lines with toolUseResult, attachments,
 * queue operations, compaction summaries, sidechains.
 */
export class TranscriptBuilder {
  readonly lines: Record<string, unknown>[] = [];
  private parent: string | null = null;
  /** Fields every line carries from now on (a subagent's own transcript: sidechain, agent id). */
  private extraFields: Record<string, unknown> = {};
  private t = Date.parse('2026-12-01T09:00:00Z');
  private n = 0;

  constructor(
    readonly sessionId: string = randomUUID(),
    readonly cwd: string = '/home/dev/project',
  ) {}

  /** Apply a shared run of lines (a helper that adds them and returns the builder). */
  with(add: (t: this) => this): this {
    return add(this);
  }

  /** Lines added from now on are timestamped from `iso` on (a session after a real hook ran). */
  startAt(iso: string): this {
    this.t = Date.parse(iso);
    return this;
  }

  private common(extra: Record<string, unknown> = {}): Record<string, unknown> {
    const uuid = randomUUID();
    this.t += 1500;
    const line = {
      parentUuid: this.parent,
      isSidechain: false,
      uuid,
      timestamp: new Date(this.t).toISOString(),
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: '2.1.332',
      gitBranch: 'main',
      ...this.extraFields,
      ...extra,
    };
    this.parent = uuid;
    return line;
  }

  /**
   * Lines added from now on are a subagent's, as Claude Code writes its own transcript
   * (`<session>/subagents/agent-<id>.jsonl`): `isSidechain: true` and the agent's id.
   */
  asSubagent(agentId: string): this {
    this.extraFields = { isSidechain: true, agentId };
    return this;
  }

  /** The result of a foreground subagent's Agent call: its report, written when it ends. */
  agentDone(toolUseId: string, agentId: string, report: string): this {
    this.lines.push({
      ...this.common(),
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: toolUseId, type: 'tool_result', content: [{ type: 'text', text: report }] }],
      },
      toolUseResult: { status: 'completed', agentId, content: [{ type: 'text', text: report }] },
    });
    return this;
  }

  queue(prompt: string): this {
    this.lines.push({
      type: 'queue-operation',
      operation: 'enqueue',
      timestamp: new Date(this.t).toISOString(),
      sessionId: this.sessionId,
      content: prompt,
    });
    return this;
  }

  user(prompt: string): this {
    this.lines.push({ ...this.common(), type: 'user', message: { role: 'user', content: prompt } });
    return this;
  }

  attachment(text: string): this {
    this.lines.push({
      ...this.common(),
      type: 'attachment',
      attachment: { type: 'hook_additional_context', content: [text] },
    });
    return this;
  }

  /** An assistant line: `message` gets the next message id and the assistant role. */
  private pushAssistant(message: Record<string, unknown>): this {
    this.n++;
    this.lines.push({
      ...this.common(),
      type: 'assistant',
      message: { id: `msg_${this.n}`, ...message, role: 'assistant' },
    });
    return this;
  }

  assistant(text: string): this {
    return this.pushAssistant({
      type: 'message',
      model: 'claude-opus-5-5',
      content: [{ type: 'text', text }],
    });
  }

  thinking(text: string): this {
    return this.pushAssistant({ content: [{ type: 'thinking', thinking: text, signature: 'sig' }] });
  }

  /** A tool call and its result (two lines, as the client writes them). */
  tool(
    name: string,
    input: Record<string, unknown>,
    result: string,
    opts: { isError?: boolean; sidechain?: boolean } = {},
  ): this {
    this.n++;
    const id = `toolu_${this.n.toString().padStart(4, '0')}`;
    const side = opts.sidechain ? { isSidechain: true } : {};
    this.lines.push({
      ...this.common(side),
      type: 'assistant',
      message: { id: `msg_${this.n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    this.lines.push({
      ...this.common(side),
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            tool_use_id: id,
            type: 'tool_result',
            content: result,
            ...(opts.isError ? { is_error: true } : {}),
          },
        ],
      },
      toolUseResult:
        name === 'Bash'
          ? { stdout: opts.isError ? '' : result, stderr: opts.isError ? result : '', interrupted: false }
          : { type: 'update', filePath: input.file_path },
    });
    return this;
  }

  /**
   * One assistant message launching subagents (the Agent tool), results not yet written: what
   * the parent transcript holds when a foreground subagent's SubagentStart fires. Returns the
   * tool-use ids, in order.
   */
  agentCalls(tasks: { prompt: string; description?: string; subagent_type?: string }[]): string[] {
    const ids = tasks.map(() => {
      this.n++;
      return `toolu_${this.n.toString().padStart(4, '0')}`;
    });
    this.lines.push({
      ...this.common(),
      type: 'assistant',
      message: {
        id: `msg_${this.n}`,
        role: 'assistant',
        content: tasks.map((input, i) => ({ type: 'tool_use', id: ids[i], name: 'Agent', input })),
      },
    });
    return ids;
  }

  /** The result of a background launch, naming the agent (written before its SubagentStart). */
  agentLaunched(toolUseId: string, agentId: string, task: { prompt: string; description?: string }): this {
    this.lines.push({
      ...this.common(),
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            tool_use_id: toolUseId,
            type: 'tool_result',
            content: [{ type: 'text', text: `agentId: ${agentId}` }],
          },
        ],
      },
      toolUseResult: { isAsync: true, status: 'async_launched', agentId, ...task },
    });
    return this;
  }

  compactSummary(text: string): this {
    this.lines.push({
      ...this.common(),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
    });
    this.lines.push({
      ...this.common(),
      type: 'user',
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
      message: { role: 'user', content: text },
    });
    return this;
  }

  meta(text: string): this {
    this.lines.push({
      ...this.common(),
      type: 'user',
      isMeta: true,
      message: { role: 'user', content: text },
    });
    return this;
  }

  sidechainUser(text: string): this {
    this.lines.push({
      ...this.common({ isSidechain: true }),
      type: 'user',
      message: { role: 'user', content: text },
    });
    return this;
  }

  lastPrompt(): this {
    this.lines.push({ type: 'last-prompt', lastPrompt: 'x', sessionId: this.sessionId });
    return this;
  }

  text(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }

  write(path: string): this {
    // the folder may be missing: claude-cli.test once found its projects folder gone (ENOENT)
    // after a real claude run in that workspace; a fixture's write must not depend on it
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, this.text());
    return this;
  }

  /** Append lines added since `from` (index into lines) to the file. */
  appendSince(path: string, from: number): this {
    appendFileSync(
      path,
      this.lines
        .slice(from)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
    return this;
  }
}

/** A realistic working session: preferences stated, a decision taken, files edited, tests run. */
export function workSession(b = new TranscriptBuilder()): TranscriptBuilder {
  const root = b.cwd;
  return b
    .queue('We are moving the HTTP client to undici.')
    .user(
      'We are moving the HTTP client to undici, because node-fetch is unmaintained. Also: always use tabs for indentation, in all my projects.',
    )
    .attachment('agentctx: 2 related records')
    .thinking('The user wants undici.')
    .assistant('I will replace node-fetch with undici in src/http/client.ts and update the tests.')
    .tool(
      'Read',
      { file_path: `${root}/src/http/client.ts` },
      'import fetch from "node-fetch";\nexport async function get(url) {}',
    )
    .tool(
      'Edit',
      { file_path: `${root}/src/http/client.ts`, old_string: 'node-fetch', new_string: 'undici' },
      'The file src/http/client.ts has been updated.',
    )
    .tool(
      'Bash',
      { command: 'npx vitest run test/http', description: 'Run tests' },
      'FAIL test/http/client.test.ts\nTests: 1 failed, 4 passed',
      { isError: true },
    )
    .user('The retry test fails because undici pools connections; set pipelining to 0 in tests.')
    .tool(
      'Write',
      {
        file_path: `${root}/test/http/setup.ts`,
        content: 'export const agent = new Agent({ pipelining: 0 });',
      },
      'File created successfully at: test/http/setup.ts',
    )
    .tool(
      'Bash',
      { command: 'npx vitest run test/http', description: 'Run tests' },
      'Test Files  3 passed (3)\nTests  5 passed (5)',
    )
    .assistant(
      'Done: src/http/client.ts now uses undici; tests pass with pipelining 0. Next: migrate src/http/upload.ts.',
    )
    .lastPrompt();
}
