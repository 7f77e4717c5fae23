import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

/**
 * The transcript file Claude Code keeps for a session (one JSON object a line, in the shapes
 * docs/CLAUDE-CODE.md describes), written by the demo as its scripted session goes on, so that
 * the Stop hook's extraction reads a real file.
 */
export class DemoTranscript {
  private parent: string | null = null;
  private n = 0;

  constructor(
    readonly path: string,
    readonly sessionId: string,
    readonly cwd: string,
  ) {}

  private line(extra: Record<string, unknown>): void {
    const uuid = randomUUID();
    const obj = {
      parentUuid: this.parent,
      isSidechain: false,
      uuid,
      timestamp: new Date().toISOString(),
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: 'agentctx-demo',
      gitBranch: 'main',
      ...extra,
    };
    this.parent = uuid;
    appendFileSync(this.path, `${JSON.stringify(obj)}\n`);
  }

  user(prompt: string): void {
    this.line({ type: 'user', message: { role: 'user', content: prompt } });
  }

  assistant(text: string): void {
    this.n++;
    this.line({
      type: 'assistant',
      message: { id: `msg_demo_${this.n}`, role: 'assistant', content: [{ type: 'text', text }] },
    });
  }

  /** A tool call and its result, as two lines. */
  tool(name: string, input: Record<string, unknown>, result: string, isError: boolean): void {
    this.n++;
    const id = `toolu_demo_${String(this.n).padStart(4, '0')}`;
    this.line({
      type: 'assistant',
      message: {
        id: `msg_demo_${this.n}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input }],
      },
    });
    this.line({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { tool_use_id: id, type: 'tool_result', content: result, ...(isError ? { is_error: true } : {}) },
        ],
      },
      toolUseResult:
        name === 'Bash'
          ? { stdout: isError ? '' : result, stderr: isError ? result : '', interrupted: false }
          : { type: 'text' },
    });
  }
}
