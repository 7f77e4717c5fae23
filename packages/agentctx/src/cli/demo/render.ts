import type { Style } from '../style.js';
import { table } from '../style.js';
import type { StoredRecord } from './driver.js';
import type { DemoStep, Received } from './run.js';

/** The demo's words on a terminal: each step as it happens, then what is stored and what next. */

function quote(text: string, style: Style): string {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => `     ${style.dim('│')} ${l}`)
    .join('\n');
}

function recordRows(records: readonly StoredRecord[], style: Style, mark = ''): string[][] {
  return records.map((r) => [
    `${mark}${r.type}${r.scope === 'global' ? ' (global)' : ''}`,
    r.confidence === 'inferred' ? style.yellow(r.confidence) : style.green(r.confidence),
    style.dim(r.source),
    r.title,
  ]);
}

/** Why a hook printed nothing, by the hook. */
function whyNothing(via: string): string {
  if (via.startsWith('SessionStart'))
    return 'no digest for this project yet: the hook started a consolidation to write one';
  if (via.startsWith('UserPromptSubmit'))
    return 'no stored record matches this prompt well enough: silence beats noise';
  if (via.startsWith('PostToolUse')) return 'this hook only captures';
  return 'it starts its work in the background and returns at once';
}

function receivedLines(s: DemoStep, style: Style): string[] {
  if (s.received === undefined) return [];
  if (s.received === null)
    return [`     Claude Code receives: ${style.dim(`nothing (${whyNothing(s.via)})`)}`];
  const what = s.via.startsWith('SessionStart') ? 'the digest' : 'context for this prompt';
  return [
    `     Claude Code receives ${what}, ${style.bold(`${s.received.tokens} tokens`)}:`,
    quote(s.received.text, style),
  ];
}

export function renderStep(s: DemoStep, n: number, style: Style): string {
  const head = n === 1 || (s.session === 2 && s.via.startsWith('SessionStart'));
  const lines: string[] = [];
  if (head) lines.push('', style.bold(style.cyan(`── Session ${s.session} ${'─'.repeat(60)}`)));
  lines.push(`${style.bold(String(n).padStart(3))}  ${s.what}`);
  lines.push(`     ${style.dim(`via ${s.via} · ${s.ms} ms`)}`);
  lines.push(...receivedLines(s, style));
  if (s.answer !== undefined) {
    const one = s.answer.replace(/\s+/g, ' ');
    lines.push(`     Claude gets back: ${style.dim(one.length > 150 ? `${one.slice(0, 149)}…` : one)}`);
  }
  for (const b of s.background ?? [])
    lines.push(`     background: agentctx ${b.command} (pid ${b.pid}) ran and finished`);
  if (s.stored.length > 0) {
    lines.push('     stored:');
    lines.push(table(recordRows(s.stored, style, '+ '), '       '));
  }
  return lines.join('\n');
}

interface DemoSummary {
  dir: string;
  kept: boolean;
  project: string;
  home: string;
  digest: Received | null;
  injection: Received | null;
  records: StoredRecord[];
  decision_title: string;
  ms: number;
}

export function renderSummary(r: DemoSummary, style: Style): string {
  const lines = ['', style.bold(style.cyan(`── What happened ${'─'.repeat(58)}`))];
  const inDigest = r.digest?.text.includes(r.decision_title) ?? false;
  const inInjection = r.injection?.text.includes(r.decision_title) ?? false;
  lines.push(
    `  Session 2 started with ${r.digest ? `a ${r.digest.tokens}-token digest` : 'no digest'} and got ${
      r.injection ? `${r.injection.tokens} tokens of context` : 'no context'
    } for its prompt.`,
  );
  if (inDigest && !inInjection)
    lines.push(
      '  The decision came back in the digest; the prompt brought what the digest left out (the failing',
      '  test, captured as unconfirmed records). Each record reaches a session once.',
    );
  else if (inInjection) lines.push('  The decision came back with the prompt that needed it.');
  lines.push('', style.bold('  The store now holds:'), table(recordRows(r.records, style), '    '));
  lines.push(
    '',
    style.dim(
      '  explicit: stated by you (here through the MCP tool Claude calls); inferred: captured by the hooks or by',
    ),
    style.dim(
      '  rules, shown as unconfirmed until seen again. With an API key or the claude CLI, extraction reads',
    ),
    style.dim('  decisions out of the transcript too.'),
    '',
  );
  if (r.kept) {
    lines.push(
      `  Kept in ${r.dir}. Look around:`,
      `    AGENTCTX_HOME=${r.home} agentctx ui --cwd ${r.project}`,
      `    AGENTCTX_HOME=${r.home} agentctx status --cwd ${r.project}`,
    );
  } else
    lines.push(
      style.dim(`  Done in ${(r.ms / 1000).toFixed(1)} s; the demo folder is deleted (--keep DIR keeps it).`),
    );
  lines.push(`  Set it up for real: ${style.bold('agentctx init')}, then ${style.bold('agentctx doctor')}.`);
  return lines.join('\n');
}
