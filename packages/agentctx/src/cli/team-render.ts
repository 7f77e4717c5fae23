import type { ImportReport } from '../core/team/team-import.js';
import type { StatusItem, TeamStatus } from '../core/team/team-status.js';

/** The human renderings of `agentctx team import` and `agentctx team status`. */

export function renderImport(file: string, r: ImportReport): string {
  const lines = [
    `imported ${file}: ${r.created.length} new, ${r.updated.length} updated, ${r.linked.length} matched, ${r.removed.length} closed, ${r.unchanged} unchanged`,
  ];
  for (const c of r.created) lines.push(`  + ${c.id}  ${c.title}`);
  for (const u of r.updated) lines.push(`  ~ ${u.old_id} -> ${u.id}  ${u.title}`);
  for (const x of r.removed) lines.push(`  - ${x.id}  ${x.title} (closed; still in history)`);
  for (const c of r.conflicts) {
    lines.push(
      `  ! ${c.title}: changed on both sides; all ${c.versions} versions kept (the latest, ${c.id}, is current until you choose): run agentctx review`,
    );
  }
  for (const k of r.kept)
    lines.push(`  ? ${k.id}  ${k.title}: removed from the file, kept here: ${k.reason}`);
  for (const e of r.errors) lines.push(`  line ${e.line}: ${e.message} (skipped)`);
  return lines.join('\n');
}

function items(title: string, list: readonly StatusItem[]): string[] {
  if (list.length === 0) return [];
  return [`${title}:`, ...list.map((i) => `  ${i.id}  ${i.type.padEnd(10)} ${i.title}`)];
}

export function renderStatus(file: string, s: TeamStatus): string {
  const sync = s.file.last_sync
    ? `last ${s.file.last_sync.action} ${s.file.last_sync.at}`
    : 'never exported or imported here';
  const lines = [
    s.file.exists
      ? `${file}: ${s.file.blocks} blocks, ${s.file.in_step ? 'in step with this store' : 'changed since the last export/import'} (${sync})`
      : `${file}: not written yet (agentctx team export)`,
    ...items('local only (the next export adds them)', s.local_only),
    ...items('changed here since the last export', s.changed_here),
    ...items('closed here since the last export', s.closed_here),
  ];
  const f = s.changed_in_file;
  if (f.incoming.length > 0) {
    lines.push('new or edited in the file (agentctx team import):');
    for (const b of f.incoming) lines.push(`  line ${b.line}  ${b.title}`);
  }
  if (f.removed.length > 0) {
    lines.push('removed from the file (agentctx team import closes them after asking):');
    for (const b of f.removed) lines.push(`  ${b.key}  ${b.title}`);
  }
  for (const e of f.errors) lines.push(`line ${e.line}: ${e.message}`);
  if (lines.length === 1 && s.file.exists) lines.push('nothing to export or import');
  return lines.join('\n');
}
