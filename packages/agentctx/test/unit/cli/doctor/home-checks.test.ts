import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECENT_MS, recentLogErrors } from '../../../../src/cli/doctor/home-checks.js';
import { tempDir } from '../../../support/tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function logs(files: Record<string, string>): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const dir = join(t.path, 'logs');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('recentLogErrors', () => {
  const now = new Date();
  const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();

  it('counts failures of the last day, not older ones, not degradations, not spawn lines', () => {
    const dir = logs({
      'consolidate.log': [
        `${at(RECENT_MS + 60_000)} [1] project=p failed: too old`,
        `${at(60_000)} [2] project=p failed: SQLITE_CORRUPT: database disk image is malformed`,
        `${at(30_000)} [3] project=p finished=true records=4`,
      ].join('\n'),
      'mcp.log': `${at(10_000)} [4] ctx_search keyword-only: model not downloaded\n`,
      'hooks.log': [
        `${at(9_000)} [5] spawned agentctx extract pid=7`,
        `${at(8_000)} [6] user-prompt-submit: TypeError: x is not a function | at y (hook.cjs:1:2)`,
      ].join('\n'),
    });
    const errors = recentLogErrors(dir, now);
    expect(errors.map((e) => e.line)).toEqual([
      '[2] project=p failed: SQLITE_CORRUPT: database disk image is malformed',
      '[6] user-prompt-submit: TypeError: x is not a function | at y (hook.cjs:1:2)',
    ]);
  });

  it('reads background.log for the jobs’ errors only, not the titles of the records they print', () => {
    const dir = logs({
      'background.log': [
        `${at(5_000)} [9] spawn agentctx extract --session-id s`,
        'created   01ABC bugfix [inferred] Error: AssertionError failed to add cents',
        `${at(4_000)} [9] spawn agentctx consolidate --cwd /p`,
        'agentctx: cannot open the store /h/agentctx.db for writing (SQLITE_FULL)',
        'agentctx: background deadline reached (600000 ms)',
      ].join('\n'),
    });
    expect(recentLogErrors(dir, now).map((e) => e.line)).toEqual([
      'agentctx: cannot open the store /h/agentctx.db for writing (SQLITE_FULL)',
      'agentctx: background deadline reached (600000 ms)',
    ]);
  });

  it('finds nothing in a folder that does not exist', () => {
    expect(recentLogErrors('/nonexistent/agentctx/logs', now)).toEqual([]);
  });
});
