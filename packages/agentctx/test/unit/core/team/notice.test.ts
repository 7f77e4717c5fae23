import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSha } from '../../../../src/core/team/team-file.js';
import { teamNotice, writeTeamStamp } from '../../../../src/core/team/team-notice.js';
import { tempDir } from '../../../support/tmp.js';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

describe('the SessionStart team notice', () => {
  it('speaks only when the file differs from the last export/import', () => {
    const d = tempDir('agentctx-notice-');
    dirs.push(d);
    const root = join(d.path, 'repo');
    const digests = join(d.path, 'digests');
    mkdirSync(join(root, '.agentctx'), { recursive: true });
    expect(teamNotice(root, digests, 'p1')).toBeNull(); // no file
    const text = '# Team context\n\n## Decisions\n\n<!-- agentctx:id=01A type=decision -->\n### A\n\nB.\n';
    writeFileSync(join(root, '.agentctx', 'context.md'), text);
    expect(teamNotice(root, digests, 'p1')).toMatch(/not imported here yet: run `agentctx team import`/);
    writeTeamStamp(digests, 'p1', fileSha(text));
    expect(teamNotice(root, digests, 'p1')).toBeNull();
    writeFileSync(
      join(root, '.agentctx', 'context.md'),
      `${text}\n<!-- agentctx:id=01B type=decision -->\n### C\n\nD.\n`,
    );
    expect(teamNotice(root, digests, 'p1')).toMatch(/team context changed .*run `agentctx team import`/);
    expect(teamNotice(root, digests, 'p2')).toMatch(/not imported here yet/); // another project's stamp
    // stamped with the file's size and mtime: in step by a stat alone, until the file changes
    const now = readFileSync(join(root, '.agentctx', 'context.md'), 'utf8');
    writeTeamStamp(digests, 'p1', fileSha(now), root);
    expect(JSON.parse(readFileSync(join(digests, 'p1.team.json'), 'utf8'))).toHaveProperty('mtime_ms');
    expect(teamNotice(root, digests, 'p1')).toBeNull();
    writeFileSync(join(root, '.agentctx', 'context.md'), `${now}\n`);
    expect(teamNotice(root, digests, 'p1')).toMatch(/team context changed/);
    // a stamp whose hash is not the file's does not take its size and mtime
    writeTeamStamp(digests, 'p3', 'not-the-hash', root);
    expect(JSON.parse(readFileSync(join(digests, 'p3.team.json'), 'utf8'))).toEqual({
      file_sha: 'not-the-hash',
    });
  });

  it('never blocks or throws on a file that is not a regular file', () => {
    const d = tempDir('agentctx-notice-');
    dirs.push(d);
    const root = join(d.path, 'repo');
    mkdirSync(join(root, '.agentctx'), { recursive: true });
    execFileSync('mkfifo', [join(root, '.agentctx', 'context.md')]);
    expect(teamNotice(root, join(d.path, 'digests'), 'p1')).toBeNull();
    mkdirSync(join(d.path, 'repo2', '.agentctx', 'context.md'), { recursive: true });
    expect(teamNotice(join(d.path, 'repo2'), join(d.path, 'digests'), 'p1')).toBeNull();
  });
});
