/**
 * What extraction needs from a language model: one structured call. Backends (the Anthropic
 * API here; the `claude` CLI later) implement this; core never sees an SDK.
 */
export interface LlmUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface StructuredRequest {
  /** Fixed instructions; backends that can cache a prefix put the breakpoint here. */
  system: string;
  /** The varying part: records list + transcript (or partial results). */
  user: string;
  /** The tool the answer must be shaped as; its input schema is the output schema. */
  tool: { name: string; description: string; input_schema: Record<string, unknown> };
  maxOutputTokens?: number;
}

export interface StructuredResponse {
  /** The tool input (or the same JSON found in a text block); undefined when neither parsed. */
  output: unknown;
  usage: LlmUsage;
  costUsd: number;
  model: string;
}

export interface LlmClient {
  /** Short backend name for logs ("anthropic-api"). */
  readonly name: string;
  readonly model: string;
  structured(req: StructuredRequest): Promise<StructuredResponse>;
}

/** A call failed (network, HTTP status, timeout): the caller falls back to rules. */
export class LlmError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'LlmError';
    this.status = status;
  }
}

/** A CLI backend's failed run worth another attempt: a network or server error, not a timeout. */
export function retryable(err: unknown): boolean {
  if (!(err instanceof LlmError)) return false;
  if (err.status === undefined) return !/timed out/.test(err.message);
  return err.status === 408 || err.status === 409 || err.status === 429 || err.status >= 500;
}

/** The first JSON object in a text answer (a model that ignored the tool, or wrapped it in a fence). */
export function jsonFromText(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
