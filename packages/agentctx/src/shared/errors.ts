/**
 * A domain error: something the caller did or asked for that cannot be done.
 * Adapters turn it into an exit code (CLI), a structured result (MCP) or a log line (hooks).
 */
export class AgentctxError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AgentctxError';
    this.code = code;
    this.details = details;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
