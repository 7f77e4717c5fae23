import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { projectIdFor, projectNameFor, remoteForDisplay } from '../../../../src/core/records/namespace.js';

const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
const host = fc.array(word, { minLength: 1, maxLength: 3 }).map((p) => `${p.join('.')}.example`);
const path = fc.array(word, { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));
/** A secret as it appears in a remote: percent-encoded or not, any printable character but / ? #. */
const secret = fc
  .stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@-]{6,40}$/)
  .filter((s) => /[A-Za-z0-9]{6}/.test(s));
const user = fc.stringMatching(/^[A-Za-z0-9._~%-]{1,16}$/);

const schemeUrl = fc.record({
  scheme: fc.constantFrom('https://', 'http://', 'ssh://', 'git+ssh://', 'HTTPS://'),
  host,
  port: fc.option(
    fc.integer({ min: 1, max: 65535 }).map((n) => `:${n}`),
    { nil: '' },
  ),
  path,
  suffix: fc.constantFrom('', '.git', '/', '.git/'),
});

describe('remote URLs never show credentials', () => {
  it('drops user:password from a URL and keeps everything else (generated)', () => {
    fc.assert(
      fc.property(schemeUrl, user, secret, (u, name, pass) => {
        const clean = `${u.scheme}${u.host}${u.port}/${u.path}${u.suffix}`;
        const withCreds = `${u.scheme}${name}:${pass}@${u.host}${u.port}/${u.path}${u.suffix}`;
        const shown = remoteForDisplay(withCreds);
        expect(shown).toBe(clean);
        expect(shown).not.toContain(pass);
        expect(remoteForDisplay(`${u.scheme}${pass}@${u.host}/${u.path}`)).toBe(
          `${u.scheme}${u.host}/${u.path}`,
        );
      }),
      { seed: 31, numRuns: 300 },
    );
  });

  it('leaves a remote without credentials as it is (generated)', () => {
    fc.assert(
      fc.property(schemeUrl, (u) => {
        const clean = `${u.scheme}${u.host}${u.port}/${u.path}${u.suffix}`;
        expect(remoteForDisplay(clean)).toBe(clean);
      }),
      { seed: 32, numRuns: 200 },
    );
    for (const local of [
      '/srv/git/widget.git',
      '../widget',
      'file:///srv/git/widget.git',
      'C:\\repos\\widget',
    ]) {
      expect(remoteForDisplay(local)).toBe(local);
    }
  });

  it('drops the user of an scp-like remote, and any password typed there', () => {
    expect(remoteForDisplay('git@github.com:acme/widget.git')).toBe('github.com:acme/widget.git');
    expect(remoteForDisplay('alice:hunter22@github.com:acme/widget.git')).toBe('github.com:acme/widget.git');
    expect(remoteForDisplay('github.com:acme/widget.git')).toBe('github.com:acme/widget.git');
  });

  it('gives a remote with credentials the project id and name of the same remote without them (generated)', () => {
    fc.assert(
      fc.property(schemeUrl, user, secret, (u, name, pass) => {
        const clean = `${u.scheme}${u.host}${u.port}/${u.path}${u.suffix}`;
        const withCreds = `${u.scheme}${name}:${pass}@${u.host}${u.port}/${u.path}${u.suffix}`;
        expect(projectIdFor(withCreds, '/a')).toBe(projectIdFor(clean, '/b'));
        expect(projectIdFor(remoteForDisplay(withCreds), '/a')).toBe(projectIdFor(withCreds, '/a'));
        expect(projectNameFor(withCreds, '/a')).toBe(projectNameFor(clean, '/a'));
        expect(projectNameFor(withCreds, '/a')).not.toContain(pass.toLowerCase());
      }),
      { seed: 33, numRuns: 300 },
    );
  });

  it('keeps the project ids stores already hold: SHA-256 of the normalised remote', () => {
    const alpha = '95244674cfc5f455e2f673f2bfdea29b6adc756a82b774331689d7dbcc8c6f91'; // github.com/acme/alpha
    for (const remote of [
      'git@github.com:acme/alpha.git',
      'https://github.com/acme/alpha',
      'https://ci-bot:ghp_abcdefghijklmnop0123@github.com/acme/alpha.git',
    ])
      expect(projectIdFor(remote, '/x'), remote).toBe(alpha);
    expect(projectIdFor('ssh://git@gitlab.example:2222/group/sub/widget.git', '/x')).toBe(
      'b23c12e6dbee12546a426e80123bd0f6a3a1e6fdd664ac6aac1143e229a28571', // gitlab.example/group/sub/widget
    );
  });
});
