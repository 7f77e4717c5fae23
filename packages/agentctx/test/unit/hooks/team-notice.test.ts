import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookContext } from '../../../src/hooks/context.js';
import type { SessionStartEvent } from '../../../src/hooks/event.js';
import { SESSION_START_TOKENS } from '../../../src/hooks/handlers/session-start.js';
import { withTeamNotice } from '../../../src/hooks/handlers/team-notice.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import { tempDir } from '../../support/tmp.js';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function setup(): HookContext {
  const d = tempDir('agentctx-hook-notice-');
  dirs.push(d);
  const root = join(d.path, 'repo');
  mkdirSync(join(root, '.agentctx'), { recursive: true });
  writeFileSync(
    join(root, '.agentctx', 'context.md'),
    '## Decisions\n\n<!-- agentctx:id=01A type=decision -->\n### A\n\nB.\n',
  );
  return {
    paths: { digests: join(d.path, 'digests') },
    project: () => ({ id: 'p1', name: 'repo', root, origin: null, isGit: true }),
  } as unknown as HookContext;
}

const ev = {} as SessionStartEvent;

describe('SessionStart with the team notice', () => {
  it('adds the notice after the digest and stays within the SessionStart budget', () => {
    const ctx = setup();
    const lines = Array.from(
      { length: 400 },
      (_, i) => `- decision ${i}: orders live in Postgres, replicated nightly`,
    );
    let digest = '';
    for (const l of lines) {
      if (estimateTokens(`${digest}\n${l}`) > SESSION_START_TOKENS - 2) break;
      digest = digest ? `${digest}\n${l}` : l;
    }
    const out = withTeamNotice(() => ({ additionalContext: digest }), SESSION_START_TOKENS)(ev, ctx);
    expect(out?.additionalContext).toMatch(/run `agentctx team import`\.$/);
    expect(out?.additionalContext.startsWith('- decision 0:')).toBe(true);
    expect(estimateTokens(out!.additionalContext)).toBeLessThanOrEqual(SESSION_START_TOKENS);
  });

  it('is the whole context when there is no digest, and nothing when the file is absent', () => {
    const ctx = setup();
    expect(withTeamNotice(() => null, SESSION_START_TOKENS)(ev, ctx)?.additionalContext).toMatch(
      /team import/,
    );
    const none = { ...ctx, project: () => ({ ...ctx.project(), root: '/nonexistent' }) } as HookContext;
    expect(withTeamNotice(() => ({ additionalContext: 'digest' }), SESSION_START_TOKENS)(ev, none)).toEqual({
      additionalContext: 'digest',
    });
  });
});
