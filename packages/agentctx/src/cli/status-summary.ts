import type { ExtractionBackends } from './status-extraction.js';

/**
 * The first lines of `agentctx status` (issue 31 #12): what a person needs, in words: is it
 * working, what it knows, what it cost, what needs them. Everything else is behind --verbose.
 */
interface SummaryInput {
  name: string;
  isGit: boolean;
  registered: boolean;
  registration: string;
  incognito: boolean;
  /** Agents whose records are kept to themselves (`agents.isolate`), as people name them. */
  isolated: string[];
  readOnly: string | null;
  counts: Record<string, number>;
  unconfirmed: number;
  global: number;
  spentToday: number;
  cap: number;
  spentAll: number;
  sessions: number;
  backends: ExtractionBackends;
  review: { total: number; line: string };
  notices: string[];
  warnings: string[];
}

const PLURAL: Record<string, string> = { discovery: 'discoveries', bugfix: 'bug fixes' };

function count(n: number, one: string): string {
  return `${n} ${n === 1 ? one : (PLURAL[one] ?? `${one}s`)}`;
}

export function summaryLines(s: SummaryInput): string[] {
  const problems = [
    ...(s.registered ? [] : ['Claude Code does not run it here']),
    ...(s.readOnly ? [`the store is read-only (${s.readOnly})`] : []),
  ];
  const state = problems.length
    ? `not working: ${problems.join('; ')}`
    : `working${s.incognito ? ', incognito for one session' : ''}`;
  const kinds = Object.entries(s.counts)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => count(n, t));
  const total = Object.values(s.counts).reduce((a, b) => a + b, 0);
  const last = s.backends.last;
  const extraction = last
    ? `last extraction used ${last.backend ?? 'rules (no model)'}`
    : 'no extraction yet';
  return [
    `${s.name}: ${state}${s.registered ? ` (${s.registration})` : ': run `agentctx init` (the plugin route is in the README)'}${s.isGit ? '' : '; no git repository here, so this folder is the project'}`,
    `knows     ${count(total, 'record')} here${kinds.length ? ` (${kinds.join(', ')})` : ''}${s.unconfirmed ? `, ${s.unconfirmed} unconfirmed` : ''}; ${count(s.global, 'record')} in your global profile`,
    `cost      $${s.spentToday.toFixed(4)} today of the $${s.cap} daily cap; $${s.spentAll.toFixed(4)} over ${count(s.sessions, 'session')}; ${extraction}`,
    ...(s.isolated.length > 0
      ? [`scope     ${s.isolated.join(', ')}: own records only, kept from the other agents (agents.isolate)`]
      : []),
    `needs you ${s.review.total === 0 ? 'nothing' : s.review.line}`,
    ...s.notices.map((n) => `notice    ${n}`),
    ...s.warnings.map((w) => `warning   ${w}`),
  ];
}
