import type { LlmClient, StructuredRequest, StructuredResponse } from '../../llm/client.js';
import { type Redact, redactDeep } from './redact.js';

/**
 * A client that redacts what it sends (the varying user part; the system prompt and schema
 * are fixed text) and what comes back, whatever backend is underneath. The caller redacts the
 * transcript already; this is the last gate before the process boundary.
 */
export function redactingClient(inner: LlmClient, redact: Redact): LlmClient {
  return {
    name: inner.name,
    model: inner.model,
    async structured(req: StructuredRequest): Promise<StructuredResponse> {
      const resp = await inner.structured({ ...req, user: redact(req.user) });
      return { ...resp, output: redactDeep(resp.output, redact) };
    },
  };
}
