import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

const TOKEN = 'ghp_Zx81qPLmW0rTuv4y';
let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let withCreds: string;
let clean: string;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  withCreds = fakeRepo(t.path, 'tokened', `https://alice:${TOKEN}@github.com/acme/alpha.git`);
  clean = fakeRepo(t.path, 'clean', 'https://github.com/acme/alpha.git');
});
afterAll(() => t.cleanup());

describe('a remote URL with credentials (built CLI)', () => {
  it('status --json shows the remote without user and password', () => {
    const res = runJson<{ origin: string; project_id: string; project: string }>(['status'], {
      cwd: withCreds,
      env,
    });
    expect(res.code).toBe(0);
    expect(res.json.origin).toBe('https://github.com/acme/alpha.git');
    expect(JSON.stringify(res.json)).not.toContain(TOKEN);
    expect(JSON.stringify(res.json)).not.toContain('alice');
  });

  it('keeps the project id: the same namespace as a clone without credentials', () => {
    const a = runJson<{ project_id: string; project: string }>(['status'], { cwd: withCreds, env });
    const b = runJson<{ project_id: string; project: string }>(['status'], { cwd: clean, env });
    expect(a.json.project_id).toBe(b.json.project_id);
    expect(a.json.project).toBe('alpha');
  });

  it('prints the token nowhere: plain status, export, record, search, session-start', () => {
    const rec = runJson<{ id: string }>(
      ['record', '--type', 'decision', '--title', 'Queue', '--body', 'Use SQS.'],
      {
        cwd: withCreds,
        env,
      },
    );
    expect(rec.code).toBe(0);
    const outputs = [
      runAgentctx(['status', '--verbose'], { cwd: withCreds, env }),
      runAgentctx(['export'], { cwd: withCreds, env }),
      runAgentctx(['search', 'queue', '--json'], { cwd: withCreds, env }),
      runAgentctx(['hook', 'session-start'], {
        cwd: withCreds,
        env,
        input: JSON.stringify({
          session_id: 's1',
          cwd: withCreds,
          hook_event_name: 'SessionStart',
          source: 'startup',
        }),
      }),
    ];
    for (const out of outputs) {
      expect(out.stdout + out.stderr).not.toContain(TOKEN);
      expect(out.stdout + out.stderr).not.toContain('alice');
    }
  });
});
