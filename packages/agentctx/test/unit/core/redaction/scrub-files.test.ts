import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import { scrubLogs, scrubTextFile } from '../../../../src/core/redaction/scrub-files.js';
import { rand } from '../../../support/secret-corpus.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let logs: string;
beforeEach(() => {
  t = tempDir('agentctx-scrub-files-');
  logs = join(t.path, 'logs');
  mkdirSync(logs);
});
afterEach(() => t.cleanup());

const line = (m: string) => `2025-06-01T10:00:00.000Z [42] ${m}\n`;

describe('scrubLogs', () => {
  it('rewrites a log holding a secret, and reads only what was appended since', () => {
    const gh = `ghp_${rand(36)}`;
    const hooks = join(logs, 'hooks.log');
    writeFileSync(
      hooks,
      line('post-tool-use: ok') + line(`user-prompt-submit: Error: bad input GITHUB_TOKEN=${gh}`),
    );
    writeFileSync(join(logs, 'consolidate.log'), line('project=p finished=true'));

    const first = scrubLogs(logs, redactSecrets, 'fp1', undefined);
    expect(first.report).toMatchObject({ checked: 2, rewritten: 1, secrets: { count: 1 } });
    const text = readFileSync(hooks, 'utf8');
    expect(text).not.toContain(gh.slice(4, 16));
    expect(text).toContain('post-tool-use: ok');
    expect(statSync(hooks).mode & 0o777).toBe(0o600);

    // nothing appended: nothing read
    const again = scrubLogs(logs, redactSecrets, 'fp1', first.state);
    expect(again.report).toMatchObject({ checked: 0, rewritten: 0 });

    // a clean line appended: only the tail is read, the file is left alone
    appendFileSync(hooks, line('stop: ok'));
    const ino = statSync(hooks).ino;
    const tail = scrubLogs(logs, redactSecrets, 'fp1', again.state);
    expect(tail.report).toMatchObject({ checked: 1, rewritten: 0 });
    expect(statSync(hooks).ino).toBe(ino);

    // rotated: the old file keeps its inode under the .1 name and is not read again
    renameSync(hooks, `${hooks}.1`);
    const key = `sk-ant-api03-${rand(40)}`;
    writeFileSync(hooks, line(`uncaught: ${key}`));
    const rotated = scrubLogs(logs, redactSecrets, 'fp1', tail.state);
    expect(rotated.report).toMatchObject({ checked: 1, rewritten: 1 });
    expect(readFileSync(hooks, 'utf8')).not.toContain(key.slice(13, 30));

    // a new redactor reads every file whole again
    const full = scrubLogs(logs, redactSecrets, 'fp2', rotated.state);
    expect(full.report.checked).toBe(3);
  });

  it('leaves a line still being written for the next run', () => {
    const f = join(logs, 'extract.log');
    writeFileSync(f, `${line('ok')}2025-06-01 partial ghp_${rand(8)}`);
    const r = scrubLogs(logs, redactSecrets, 'fp', undefined);
    expect(r.state.files['extract.log']?.size).toBe(line('ok').length);
  });
});

describe('scrubTextFile', () => {
  it('redacts a file in place only when it holds a secret; a missing file is no error', () => {
    const f = join(t.path, 'profile.md');
    const pw = rand(20);
    writeFileSync(f, `# Profile\n\nDB_PASSWORD=${pw}\n`);
    expect(scrubTextFile(f, redactSecrets)?.count).toBe(1);
    expect(readFileSync(f, 'utf8')).toBe('# Profile\n\nDB_PASSWORD=[REDACTED:secret]\n');
    const ino = statSync(f).ino;
    expect(scrubTextFile(f, redactSecrets)?.count).toBe(0);
    expect(statSync(f).ino).toBe(ino);
    expect(scrubTextFile(join(t.path, 'none.md'), redactSecrets)).toBeNull();
  });
});
