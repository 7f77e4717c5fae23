import type { ProjectRef } from '../app/project.js';
import { autoMemoryState } from '../claude/auto-memory.js';

type Env = Record<string, string | undefined>;

/**
 * The status lines about Claude Code's own auto-memory: whether it is on for this project,
 * where its notes are, and how to take them in. Both memories inject context into every
 * session: a fact held in both is paid for twice.
 */
export function autoMemoryStatus(
  env: Env,
  project: ProjectRef,
): { json: Record<string, unknown>; lines: string[] } {
  const s = autoMemoryState(env, project.mainRoot ?? project.root, project.root);
  const json = {
    auto_memory: { enabled: s.enabled, decided_by: s.decidedBy, dir: s.dir, files: s.files.length },
  };
  if (!s.enabled) return { json, lines: [`auto-mem  Claude Code auto-memory is off (${s.decidedBy})`] };
  const held = s.files.length === 0 ? 'no notes yet' : `${s.files.length} file(s) in ${s.dir}`;
  const lines = [
    `auto-mem  Claude Code auto-memory is on for this project (${held}): its notes load into every session beside agentctx's`,
  ];
  if (s.files.length > 0)
    lines.push(
      '          `agentctx import claude-memory` takes them in; then turn one off (autoMemoryEnabled: false) to stop paying twice',
    );
  return { json, lines };
}
