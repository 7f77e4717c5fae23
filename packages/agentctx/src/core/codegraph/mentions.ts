import { isSymbolName } from './source.js';

/**
 * The identifiers a record's text names *as code*: inside backticks, called (`charge(`),
 * qualified (`Order.total`, `pay::charge`; a lowercase name before a dot is not: `checkout.ts`), or shaped like code on their own (camelCase,
 * snake_case, PascalCase with two humps or more). A plain word ("Charge the card") is prose and
 * names nothing, so a symbol called `Charge` is only linked when the text writes it as code.
 */

const WORD = /[A-Za-z_$][\w$]*/g;
const CODE_SHAPED = /[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z0-9]|^[A-Z][a-z0-9]+[A-Z]/;

function insideBackticks(text: string): Set<number> {
  const spans = new Set<number>();
  for (const m of text.matchAll(/`([^`\n]{1,200})`/g)) {
    for (const w of m[1]!.matchAll(WORD)) spans.add(m.index! + 1 + w.index!);
  }
  return spans;
}

/** The code-like names in `text`; with `only`, just those it accepts (checked first: cheaper). */
export function codeMentions(text: string, only?: (name: string) => boolean): Set<string> {
  const out = new Set<string>();
  let ticked: Set<number> | undefined;
  for (const m of text.matchAll(WORD)) {
    const name = m[0];
    if ((only && !only(name)) || !isSymbolName(name)) continue;
    ticked ??= insideBackticks(text);
    const at = m.index!;
    const before = text.slice(Math.max(0, at - 2), at);
    const after = text.slice(at + name.length, at + name.length + 2);
    if (
      ticked.has(at) ||
      after.startsWith('(') ||
      after === '::' ||
      before === '::' ||
      /[\w)\]]\.$/.test(before) ||
      (/^\.[A-Za-z_$]/.test(after) && /^[A-Z]/.test(name)) ||
      CODE_SHAPED.test(name)
    ) {
      out.add(name);
    }
  }
  return out;
}
