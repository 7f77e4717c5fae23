import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { sdkErrorResult } from './result.js';

/**
 * The MCP channel's guard. The SDK answers arguments that fail a tool's input schema, and
 * unknown tool names, with a plain-text tool error. SPEC §5 wants every failure as a structured
 * `{error, degraded?}`, so outgoing tool results are checked at the transport: an error result
 * whose text is not already our JSON is rewritten into it. Only public SDK surface
 * (Transport.send) is used.
 */
function isStructured(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && typeof (v as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

export function rewriteToolError(message: JSONRPCMessage): JSONRPCMessage {
  if (!('result' in message) || !message.result || message.result.isError !== true) return message;
  const content = message.result.content;
  if (!Array.isArray(content)) return message;
  const texts = content.map((c: { type?: string; text?: unknown }) =>
    c?.type === 'text' && typeof c.text === 'string' ? c.text : '',
  );
  if (texts.length === 1 && isStructured(texts[0] ?? '')) return message;
  const raw = texts.join(' ').trim() || 'tool call failed';
  return { ...message, result: { ...message.result, ...sdkErrorResult(raw) } };
}

/** The text of a tool result, or null for any other message. */
function toolResultText(message: JSONRPCMessage): string | null {
  if (!('result' in message) || !message.result || !Array.isArray(message.result.content)) return null;
  return (message.result.content as { type?: string; text?: unknown }[])
    .map((c) => (c?.type === 'text' && typeof c.text === 'string' ? c.text : ''))
    .join('');
}

/**
 * Guard the protocol channel: every tool error leaves structured, and every tool result —
 * success or failure, ours or the SDK's — is reported to `onToolResult` for accounting.
 */
export function guardChannel<T extends Transport>(transport: T, onToolResult: (text: string) => void): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const out = rewriteToolError(message);
    const text = toolResultText(out);
    if (text !== null) onToolResult(text);
    return send(out, options);
  };
  return transport;
}
