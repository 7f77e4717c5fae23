import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observeToolUse } from '../../../../src/core/capture/observe.js';
import { rand } from '../../../support/secret-corpus.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/** PostToolUse capture stores commands and error lines: never with a secret in them. */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

function allText(db: ReturnType<typeof testStore>['db']): string {
  const rows = db.prepare('SELECT title, body FROM records').all() as { title: string; body: string }[];
  return rows.map((r) => `${r.title}\n${r.body}`).join('\n');
}

describe('observe: redaction of what PostToolUse stores', () => {
  it('a failing command with a password and a token in it becomes a bugfix stub without them', () => {
    const s = testStore(t.path, 'p1');
    const pw = rand(18);
    const tok = `ghp_${rand(36)}`;
    const out = observeToolUse(
      { ...s.deps, projectId: 'p1', projectRoot: t.path, sessionId: 'sess-1' },
      {
        toolName: 'Bash',
        toolInput: { command: `PGPASSWORD=${pw} psql -h db -U app -c "select 1"` },
        toolResponse: { stdout: '', stderr: `Error: auth failed using token ${tok}`, interrupted: false },
        cwd: t.path,
      },
    );
    expect(out.records).toHaveLength(1);
    const text = allText(s.db);
    expect(text).toContain('PGPASSWORD=[REDACTED:secret] psql');
    expect(text).toContain('[REDACTED:github-token]');
    expect(text).not.toContain(pw);
    expect(text).not.toContain(tok);
    s.db.close();
  });

  it('a test run keeps its command readable and its secrets out', () => {
    const s = testStore(t.path, 'p1');
    const key = `sk-ant-api03-${rand(60)}`;
    const out = observeToolUse(
      { ...s.deps, projectId: 'p1', projectRoot: t.path, sessionId: 'sess-2' },
      {
        toolName: 'Bash',
        toolInput: { command: `ANTHROPIC_API_KEY=${key} npx vitest run test/http` },
        toolResponse: {
          stdout: 'Test Files  3 passed (3)\nTests  5 passed (5)',
          stderr: '',
          interrupted: false,
        },
        cwd: t.path,
      },
    );
    expect(out.records).toHaveLength(1);
    const text = allText(s.db);
    expect(text).toContain('npx vitest run test/http');
    expect(text).not.toContain(key);
    s.db.close();
  });
});
