import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLocalRemote, projectNameFor } from '../../../../src/core/records/namespace.js';

/** Issue 31 #15: a project whose remote is a bare repository on disk was named "origin". */

const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

describe('projectNameFor', () => {
  it('a remote that is a folder here names nothing: the work tree folder does', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        segment,
        fc.constantFrom('/', 'file:///', '../', './', '~/', 'C:\\'),
        fc.constantFrom('origin.git', 'origin', 'shop.git', 'remote'),
        (dirs, folder, lead, bare) => {
          const root = `/home/dev/${folder}`;
          const remote = `${lead}${dirs.join('/')}/${bare}`;
          expect(isLocalRemote(remote)).toBe(true);
          expect(projectNameFor(remote, root)).toBe(basename(root));
        },
      ),
    );
  });

  it('a hosted remote still names the project by its repository', () => {
    fc.assert(
      fc.property(segment, segment, segment, (owner, repo, folder) => {
        for (const remote of [`git@github.com:${owner}/${repo}.git`, `https://gitlab.com/${owner}/${repo}`]) {
          expect(isLocalRemote(remote)).toBe(false);
          expect(projectNameFor(remote, `/home/dev/${folder}`)).toBe(repo);
        }
      }),
    );
  });
});
