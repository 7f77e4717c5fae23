import { applyPlan, type DiffPlan } from './claudemd-edits.js';

/** The proposed CLAUDE.md edits shown as a unified diff, with context lines. */

function splitLines(text: string): { lines: string[]; trailing: boolean } {
  if (text === '') return { lines: [], trailing: true };
  const lines = text.split('\n');
  const trailing = text.endsWith('\n');
  if (trailing) lines.pop();
  return { lines, trailing };
}

const CONTEXT = 3;

/** A unified diff of one file whose lines change in place and may grow at the end. */
function fileDiff(file: string, exists: boolean, before: string, after: string): string[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const changed: number[] = [];
  const max = Math.max(a.lines.length, b.lines.length);
  for (let i = 0; i < max; i++) {
    const lastOld = i === a.lines.length - 1 && !a.trailing;
    if (i >= a.lines.length || i >= b.lines.length || a.lines[i] !== b.lines[i] || lastOld) changed.push(i);
  }
  if (changed.length === 0) return [];
  const out = [exists ? `--- a/${file}` : '--- /dev/null', `+++ b/${file}`];
  let g = 0;
  while (g < changed.length) {
    let h = g;
    while (h + 1 < changed.length && changed[h + 1]! - changed[h]! <= 2 * CONTEXT) h++;
    const from = Math.max(0, changed[g]! - CONTEXT);
    const to = changed[h]! + CONTEXT + 1;
    const oldEnd = Math.min(a.lines.length, to);
    const newEnd = Math.min(b.lines.length, to);
    const oldLen = Math.max(0, oldEnd - from);
    const newLen = Math.max(0, newEnd - from);
    const body: string[] = [];
    const isChanged = new Set(changed.slice(g, h + 1));
    for (let i = from; i < Math.max(oldEnd, newEnd); i++) {
      if (!isChanged.has(i)) {
        body.push(` ${a.lines[i]}`);
        continue;
      }
      if (i < a.lines.length) {
        body.push(`-${a.lines[i]}`);
        if (i === a.lines.length - 1 && !a.trailing) body.push('\\ No newline at end of file');
      }
      if (i < b.lines.length) body.push(`+${b.lines[i]}`);
    }
    const range = (start: number, len: number) => `${len === 0 ? start : start + 1},${len}`;
    out.push(`@@ -${range(from, oldLen)} +${range(from, newLen)} @@`, ...body);
    g = h + 1;
  }
  return out;
}

/** The unified diff of a plan (additions and strike-through replacements), with context lines. */
export function renderDiff(texts: Map<string, string>, plan: DiffPlan): string {
  const after = applyPlan(texts, plan);
  const out: string[] = [];
  for (const file of [...plan.edits.keys()].sort()) {
    out.push(...fileDiff(file, plan.edits.get(file)!.exists, texts.get(file) ?? '', after.get(file) ?? ''));
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
