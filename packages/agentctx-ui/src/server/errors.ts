import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AgentctxError, errorMessage } from './core.js';

const STATUS: Record<string, ContentfulStatusCode> = {
  not_found: 404,
  already_superseded: 409,
  invalid_input: 400,
  usage: 400,
};

/** A domain error as a JSON answer with a fitting status; anything else is a 500 with its first line. */
export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof AgentctxError) {
    return c.json(
      { error: { code: err.code, message: err.message, details: err.details } },
      STATUS[err.code] ?? 400,
    );
  }
  return c.json({ error: { code: 'internal', message: errorMessage(err).split('\n')[0] } }, 500);
}

export function invalid(message: string, field?: string): AgentctxError {
  return new AgentctxError('invalid_input', message, field ? { field } : {});
}
