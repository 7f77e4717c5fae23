/**
 * Surgical edits of JSON text. The files we touch (Claude Code settings, ~/.claude.json) belong
 * to the user: we parse them into a tree that remembers where every value sits in the text, and
 * change only the bytes of our own entries. Everything else — key order, indentation, spacing,
 * line endings — stays exactly as it was, so an insert followed by the matching removal gives
 * back the original bytes.
 */

export type JsonNode = JsonObject | JsonArray | JsonScalar;

export interface JsonObject {
  kind: 'object';
  start: number;
  end: number;
  props: JsonProp[];
}

export interface JsonArray {
  kind: 'array';
  start: number;
  end: number;
  items: JsonNode[];
}

interface JsonScalar {
  kind: 'scalar';
  start: number;
  end: number;
  value: string | number | boolean | null;
}

interface JsonProp {
  key: string;
  /** Offset of the key's opening quote: the start of the member. */
  start: number;
  value: JsonNode;
}

export class JsonSyntaxError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  constructor(message: string, text: string, offset: number) {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    super(`${message} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/** Parse strict JSON into a positioned tree; throws JsonSyntaxError with line and column. */
export function parseJsonTree(text: string): JsonNode {
  let i = 0;
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg, text, i);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        try {
          return JSON.parse(text.slice(start, i)) as string;
        } catch {
          i = start;
          return fail('invalid string');
        }
      }
      if (c === '\\') i += 2;
      else if (c !== undefined && c < ' ') return fail('control character in string');
      else i++;
    }
    return fail('unterminated string');
  };
  const value = (depth: number): JsonNode => {
    if (depth > 512) fail('nesting too deep');
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const props: JsonProp[] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', start, end: i, props };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const keyStart = i;
        const key = str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        const v = value(depth + 1);
        props.push({ key, start: keyStart, value: v });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { kind: 'object', start, end: i, props };
        }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', start, end: i, items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { kind: 'array', start, end: i, items };
        }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') {
      const s = str();
      return { kind: 'scalar', start, end: i, value: s };
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) return fail(i >= text.length ? 'unexpected end of input' : 'unexpected character');
    i += m[0].length;
    const raw = m[0];
    const v = raw === 'true' ? true : raw === 'false' ? false : raw === 'null' ? null : Number(raw);
    return { kind: 'scalar', start, end: i, value: v };
  };
  const root = value(0);
  ws();
  if (i < text.length) fail('unexpected text after the JSON value');
  return root;
}

/** The plain value of a node. */
export function toValue(node: JsonNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'array') return node.items.map(toValue);
  const out: Record<string, unknown> = {};
  for (const p of node.props) out[p.key] = toValue(p.value);
  return out;
}

/** The last property with this key (JSON.parse semantics for duplicates). */
export function getProp(obj: JsonObject, key: string): JsonProp | undefined {
  for (let k = obj.props.length - 1; k >= 0; k--) if (obj.props[k]!.key === key) return obj.props[k];
  return undefined;
}

/** Formatting conventions of a document, so inserted text looks like its neighbours. */
interface Style {
  indent: string;
  eol: string;
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)["{[\]}]/.exec(text);
  return { indent: m?.[1] ?? '  ', eol };
}

function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const m = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return m?.[0] ?? '';
}

function renderInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderInline).join(', ')}]`;
  if (value && typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${renderInline(v)}`);
    return `{${parts.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Serialise `value` for insertion at a given indentation, in the document's style. */
function render(value: unknown, style: Style, baseIndent: string, multiline: boolean): string {
  if (!multiline) return renderInline(value);
  return JSON.stringify(value, null, style.indent).split('\n').join(`${style.eol}${baseIndent}`);
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
}

function memberStart(container: JsonObject | JsonArray, index: number): number {
  return container.kind === 'object' ? container.props[index]!.start : container.items[index]!.start;
}

function memberEnd(container: JsonObject | JsonArray, index: number): number {
  return container.kind === 'object' ? container.props[index]!.value.end : container.items[index]!.end;
}

function memberCount(container: JsonObject | JsonArray): number {
  return container.kind === 'object' ? container.props.length : container.items.length;
}

/**
 * Append a member (a property `key: value` to an object, or `value` to an array) after the last
 * existing one, matching the container's layout: one member per line, or all on one line.
 */
export function appendMember(
  text: string,
  container: JsonObject | JsonArray,
  value: unknown,
  key?: string,
): Edit {
  const style = detectStyle(text);
  const n = memberCount(container);
  const prefix = container.kind === 'object' ? `${JSON.stringify(key ?? '')}: ` : '';
  if (n === 0) {
    const outer = lineIndentAt(text, container.start);
    const inner = outer + style.indent;
    const body = `${prefix}${render(value, style, inner, true)}`;
    const open = container.kind === 'object' ? '{' : '[';
    const close = container.kind === 'object' ? '}' : ']';
    return {
      start: container.start,
      end: container.end,
      text: `${open}${style.eol}${inner}${body}${style.eol}${outer}${close}`,
    };
  }
  const firstStart = memberStart(container, 0);
  const multiline = /[\r\n]/.test(text.slice(container.start, firstStart));
  const lastEnd = memberEnd(container, n - 1);
  if (multiline) {
    const inner = lineIndentAt(text, firstStart);
    return {
      start: lastEnd,
      end: lastEnd,
      text: `,${style.eol}${inner}${prefix}${render(value, style, inner, true)}`,
    };
  }
  return { start: lastEnd, end: lastEnd, text: `, ${prefix}${render(value, style, '', false)}` };
}

/**
 * Remove the member at `index`, with exactly one separator: the inverse of appendMember for the
 * last member; for the only member the container becomes empty (`{}` / `[]`).
 */
export function removeMember(_text: string, container: JsonObject | JsonArray, index: number): Edit {
  const n = memberCount(container);
  if (n === 1) return { start: container.start + 1, end: container.end - 1, text: '' };
  if (index === n - 1)
    return { start: memberEnd(container, index - 1), end: memberEnd(container, index), text: '' };
  return { start: memberStart(container, index), end: memberStart(container, index + 1), text: '' };
}

/** Replace a value in place (keeping the text around it). */
export function replaceValue(text: string, node: JsonNode, value: unknown): Edit {
  const style = detectStyle(text);
  const multiline = node.kind !== 'scalar' && /[\r\n]/.test(text.slice(node.start, node.end));
  const indent = lineIndentAt(text, node.start);
  return {
    start: node.start,
    end: node.end,
    text: render(value, style, indent, multiline || node.kind === 'scalar'),
  };
}
