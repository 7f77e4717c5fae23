import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { clearIncognito, incognitoHook, readIncognito, setIncognito } from '../../../src/app/incognito.js';
import { resolvePaths } from '../../../src/app/paths.js';
import { tempDir } from '../../support/tmp.js';

/**
 * The incognito state machine against a reference model: any sequence of `agentctx incognito`
 * (armed, or for a session), `off`, and hook events of a few sessions. A session is incognito
 * exactly from its binding until another session starts.
 */

type Step =
  | { op: 'arm' }
  | { op: 'bind'; session: string }
  | { op: 'off' }
  | { op: 'hook'; kind: 'session-start' | 'user-prompt-submit' | 'stop'; session: string };

const SESSIONS = ['s1', 's2', 's3'];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ op: 'arm' as const }),
  fc.record({ op: fc.constant('bind' as const), session: fc.constantFrom(...SESSIONS) }),
  fc.constant({ op: 'off' as const }),
  fc.record({
    op: fc.constant('hook' as const),
    kind: fc.constantFrom('session-start' as const, 'user-prompt-submit' as const, 'stop' as const),
    session: fc.constantFrom(...SESSIONS),
  }),
);

describe('incognito', () => {
  const tmp = tempDir('agentctx-incognito-');
  afterAll(() => tmp.cleanup());
  const now = new Date('2026-12-03T12:00:00Z');

  it('a hook stands aside exactly in the incognito session, which the next session ends', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const paths = resolvePaths({ AGENTCTX_HOME: join(tmp.path, `h${n++}`) });
        // the model: off (undefined), armed (null), or bound to a session
        let model: string | null | undefined;
        for (const s of steps) {
          if (s.op === 'arm') {
            setIncognito(paths, null, now);
            model = null;
          } else if (s.op === 'bind') {
            setIncognito(paths, s.session, now);
            model = s.session;
          } else if (s.op === 'off') {
            clearIncognito(paths);
            model = undefined;
          } else {
            let expected = false;
            if (model !== undefined) {
              if (model === s.session) expected = true;
              else if (s.kind === 'session-start' && model === null) {
                model = s.session;
                expected = true;
              } else if (s.kind === 'session-start') model = undefined;
            }
            expect(incognitoHook(paths, { kind: s.kind, sessionId: s.session }, now)).toBe(expected);
          }
          expect(readIncognito(paths)?.session).toBe(model === undefined ? undefined : model);
        }
      }),
      { seed: 4242, numRuns: 150 },
    );
  });

  it('a file that does not parse is off, never an error', () => {
    const paths = resolvePaths({ AGENTCTX_HOME: join(tmp.path, 'bad') });
    setIncognito(paths, 's1', now);
    writeFileSync(join(paths.home, 'incognito.json'), '{not json');
    expect(readIncognito(paths)).toBeNull();
    expect(incognitoHook(paths, { kind: 'user-prompt-submit', sessionId: 's1' }, now)).toBe(false);
  });
});
