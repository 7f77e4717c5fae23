import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.js';
import { formatAge } from '../shared/age.js';
import type { Paths } from './paths.js';

/**
 * The last session each agent started, as its SessionStart hook saw it: `<home>/agents/<agent>.json`
 * (one small file rewritten per session start; `status` and `doctor` read it).
 */
interface AgentSeen {
  session_id: string;
  cwd: string;
  at: string;
}

function file(paths: Paths, agent: string): string {
  return join(paths.home, 'agents', `${agent.replace(/[^a-z0-9-]/g, '')}.json`);
}

export function recordAgentSeen(paths: Paths, agent: string, seen: AgentSeen): void {
  mkdirSync(join(paths.home, 'agents'), { recursive: true, mode: 0o700 });
  writeFileAtomic(file(paths, agent), `${JSON.stringify(seen)}\n`, 0o600);
}

export function agentSeen(paths: Paths, agent: string): AgentSeen | null {
  try {
    const v = JSON.parse(readFileSync(file(paths, agent), 'utf8')) as Partial<AgentSeen>;
    return typeof v.session_id === 'string' && typeof v.at === 'string'
      ? { session_id: v.session_id, cwd: String(v.cwd ?? ''), at: v.at }
      : null;
  } catch {
    return null;
  }
}

/** How long ago `at` was, for people: "3h ago", "just now". */
export function ago(at: string, now: Date): string {
  const age = formatAge(at, now);
  return age === 'just now' ? age : `${age} ago`;
}
