import { isolatedAgents } from '../../app/agent-scope.js';
import { readIncognito } from '../../app/incognito.js';
import { foldJournals } from '../../app/journal.js';
import { semanticConfig } from '../../app/semantic.js';
import { describeRegistration, registration } from '../../claude/registration.js';
import { namespacesOf } from '../../core/records/records.js';
import { teamNotice } from '../../core/team/team-notice.js';
import { dailyExtractionCost } from '../../database/extraction-state-repo.js';
import { snapshotReason } from '../../database/open.js';
import { countByConfidence, countByType, profileNameOf } from '../../database/records-repo.js';
import { listSessions, sessionTotals, tokenWindows } from '../../database/sessions-repo.js';
import { folderPrivacy } from '../../files/private-dir.js';
import { AGENT_LABELS } from '../../shared/agents.js';
import { CONFIDENCES, RECORD_TYPES } from '../../shared/types.js';
import { bool } from '../args.js';
import type { Command } from '../command.js';
import { agentsStatus } from '../status-agents.js';
import { autoMemoryStatus } from '../status-auto-memory.js';
import { embeddingStatus } from '../status-embeddings.js';
import { extractionBackends, extractionLines } from '../status-extraction.js';
import { ladderStatus } from '../status-ladder.js';
import { maintenanceStatus } from '../status-maintenance.js';
import { reviewStatus } from '../status-review.js';
import { summaryLines } from '../status-summary.js';
import { usageStatus } from '../status-usage.js';
import { describeIncognito } from './incognito.js';

export const command: Command = {
  name: 'status',
  summary:
    'Is agentctx working here, what it knows, what it cost, what needs you (--verbose: store, tokens, backends, maintenance, retrieval).',
  usage: 'agentctx status [--verbose] [--json]',
  group: 'everyday',
  line: 'is it working here, what it knows, what it cost, what needs you',
  options: {
    verbose: {
      kind: 'boolean',
      help: 'the rest: store, tokens and their use, extraction backends, maintenance, retrieval',
    },
  },
  examples: ['agentctx status', 'agentctx status --verbose', 'agentctx status --json'],
  async run({ app, args }) {
    const a = app();
    // The session journals' lines not folded yet count too. Best effort: when the store cannot
    // be opened for writing (a full disk, a read-only home) a snapshot is read without them.
    try {
      foldJournals(a.db, a.paths, a.clock);
    } catch {
      // a.db could not be opened for writing; readDb below falls back to a snapshot
    }
    // reads only: a full disk or a read-only home must not stop it (a snapshot is read then)
    const db = a.readDb;
    const readOnly = snapshotReason(db);
    const semantic = await embeddingStatus(
      db,
      semanticConfig(a.config, a.paths, a.env),
      namespacesOf(a.project.id),
    );
    // the one name the digest, export and the dashboard show too
    const name = profileNameOf(db, a.project.id) ?? a.project.name;
    const raw = countByType(db, a.project.id);
    const counts = Object.fromEntries(RECORD_TYPES.map((t) => [t, raw[t] ?? 0]));
    const global = countByType(db, '_global');
    const totals = sessionTotals(db, a.project.id);
    const byConfidence = countByConfidence(db, a.project.id);
    const confidence = Object.fromEntries(CONFIDENCES.map((c) => [c, byConfidence[c] ?? 0]));
    const windows = tokenWindows(db, a.project.id, a.clock());
    const sessions = listSessions(db, a.project.id, 10);
    const backends = extractionBackends(a, db);
    const backend = backends.shell_decision;
    const day = a.clock().toISOString().slice(0, 10);
    const spent = dailyExtractionCost(db, day);
    const cap = a.config.llm.dailyCostCapUsd;
    const capReached = spent >= cap;
    const maintenance = maintenanceStatus(db, a.project.id, a.clock());
    const usage = usageStatus(db, a.project.id, windows, a.clock());
    const review = reviewStatus(a, db);
    const ladder = ladderStatus({ db, config: a.config, paths: a.paths, env: a.env, now: a.clock() });
    // opening the store tightened a loose home already; what is still open could not be
    const privacy = folderPrivacy(a.paths.home);
    const reg = registration(a.env, a.project.root);
    const incognito = readIncognito(a.paths);
    const autoMemory = autoMemoryStatus(a.env, a.project);
    // --verbose starts each agent's registered MCP server: plain status stays fast
    const agents = await agentsStatus(a, { probeMcp: bool(args.flags, 'verbose') });
    // what the session hooks tell the developer to do, said here too (issue 31 #7)
    const notices = [teamNotice(a.project.root, a.paths.digests, a.project.id)]
      .filter((n): n is string => !!n)
      .map((n) => n.replace(/^agentctx: /, ''));
    const json = {
      project_id: a.project.id,
      project: name,
      git: a.project.isGit,
      root: a.project.root,
      origin: a.project.origin,
      store: a.paths.db,
      home: { path: a.paths.home, mode: privacy?.mode ?? null, private: privacy?.private ?? false },
      ...(readOnly ? { store_read_only: readOnly } : {}),
      claude: {
        active: reg.active,
        plugin: reg.plugin,
        init: reg.init,
        ...(reg.unreadable.length ? { unreadable: reg.unreadable } : {}),
      },
      incognito,
      notices,
      counts,
      confidence,
      global_counts: global,
      last_session: windows.last_session,
      tokens: {
        last_session: windows.last_session?.tokens_injected ?? 0,
        last_7_days: windows.last_7_days,
        all: windows.all,
      },
      sessions: totals.sessions,
      tokens_injected: totals.tokens_injected,
      extraction_cost_usd: Math.round(totals.extraction_cost_usd * 1e6) / 1e6,
      recent_sessions: sessions,
      ...usage.json,
      ...maintenance.json,
      ...review.json,
      ...semantic.json,
      ...ladder.json,
      ...autoMemory.json,
      ...agents.json,
      llm: {
        backend: backend.configured,
        active: backend.active,
        reason: backend.reason,
        model: a.config.llm.model,
        last: backends.last,
        next: backends.next,
      },
      daily_cost: {
        day,
        spent_usd: Math.round(spent * 1e6) / 1e6,
        cap_usd: cap,
        cap_reached: capReached,
      },
    };
    const warnings =
      privacy && !privacy.private
        ? [
            `${a.paths.home} is mode ${privacy.mode}: other users can read the store (chmod 700 it; agentctx tightens only a folder it owns that is not shared)`,
          ]
        : [];
    const summary = summaryLines({
      name,
      isGit: a.project.isGit,
      registered: reg.active !== 'none',
      registration: describeRegistration(reg),
      incognito: incognito !== null,
      isolated: isolatedAgents(a.config).map((x) => AGENT_LABELS[x]),
      readOnly: readOnly ?? null,
      counts,
      unconfirmed: confidence.inferred ?? 0,
      global: Object.values(global).reduce((x, y) => x + y, 0),
      spentToday: spent,
      cap,
      spentAll: totals.extraction_cost_usd,
      sessions: totals.sessions,
      backends,
      review: { total: review.json.review.total, line: review.lines[0]!.replace(/^review\s+/, '') },
      notices,
      warnings,
    });
    if (!bool(args.flags, 'verbose'))
      return { json, text: [...summary, 'more      agentctx status --verbose'].join('\n') };
    const text = [
      ...summary,
      '',
      `project   ${name} (${a.project.id.slice(0, 12)})${a.project.isGit ? '' : ': no git repository here, so this folder is the project (team sharing needs git)'}`,
      `root      ${a.project.root}`,
      `store     ${a.paths.db}${readOnly ? ` (read-only snapshot: ${readOnly})` : ''}`,
      ...(privacy && !privacy.private
        ? [
            `warning   ${a.paths.home} is mode ${privacy.mode}: other users can read the store (chmod 700 it; agentctx tightens only a folder it owns that is not shared)`,
          ]
        : []),
      `claude    ${describeRegistration(reg)}`,
      ...agents.lines,
      `incognito ${describeIncognito(incognito)}`,
      ...notices.map((n) => `notice    ${n}`),
      `records   ${RECORD_TYPES.map((t) => `${t} ${counts[t]}`).join(', ')}`,
      `trust     ${CONFIDENCES.map((c) => `${c} ${confidence[c]}`).join(', ')}`,
      `tokens    ${windows.last_session?.tokens_injected ?? 0} last session, ${windows.last_7_days} in 7 days, ${windows.all} in all`,
      ...usage.lines,
      `global    ${
        Object.entries(global)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ') || 'none'
      }`,
      `sessions  ${totals.sessions}, ${totals.tokens_injected} tokens injected, $${totals.extraction_cost_usd.toFixed(4)} extraction`,
      ...extractionLines(backends),
      `today     $${spent.toFixed(4)} of the $${cap} daily cap${
        capReached ? ' (cap reached: extraction is rule-based until the next UTC day)' : ''
      }`,
      ...sessions.map(
        (s) =>
          `  ${s.session_id}  ${s.started_at ?? ''}  ${s.tokens_injected} tokens  $${s.extraction_cost_usd.toFixed(4)}`,
      ),
      ...maintenance.lines,
      ...review.lines,
      ...semantic.lines,
      ...ladder.lines,
      ...autoMemory.lines,
    ].join('\n');
    return { json, text };
  },
};
