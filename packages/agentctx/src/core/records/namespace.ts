import { sha256Hex } from '../../shared/sha256.js';

/**
 * Normalise a git remote URL so that every spelling of one repository gives one string:
 * lower-cased, scheme, credentials, port and `.git` suffix stripped, `git@host:path` and
 * `https://host/path` unified to `host/path`.
 */
export function normalizeRemoteUrl(raw: string): string {
  let url = raw.trim().toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    url = url.slice(scheme[0].length);
    const slash = url.indexOf('/');
    let authority = slash === -1 ? url : url.slice(0, slash);
    const rest = slash === -1 ? '' : url.slice(slash);
    authority = authority.slice(authority.lastIndexOf('@') + 1); // credentials
    authority = authority.replace(/:\d*$/, ''); // port
    url = authority + rest;
  } else {
    // scp-like: [user@]host:path (a colon before any slash)
    const colon = url.indexOf(':');
    const slash = url.indexOf('/');
    if (colon > 0 && (slash === -1 || colon < slash)) {
      const host = url.slice(0, colon);
      url = `${host.slice(host.lastIndexOf('@') + 1)}/${url.slice(colon + 1)}`;
    }
  }
  url = url.replace(/\/+/g, '/').replace(/\/+$/, '');
  url = url.replace(/\.git$/, '').replace(/\/+$/, '');
  return url;
}

/**
 * A remote URL fit to show or store: the same URL without its userinfo (`user:password@`), which
 * may hold a token. `https://u:tok@host/p` becomes `https://host/p`, `git@host:p` becomes
 * `host:p`; local paths and URLs without userinfo are returned as they are. The project id does
 * not depend on this: normalizeRemoteUrl drops credentials too, so both forms give one id.
 */
export function remoteForDisplay(raw: string): string {
  const url = raw.trim();
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  // the authority ends at the path (or, in a URL, at a query or fragment)
  const end = rest.search(scheme ? /[/?#]/ : /\//);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  return at === -1 ? url : scheme + rest.slice(at + 1);
}

/** CONTRACTS.md §namespaces: SHA-256 of the normalised origin remote, else of the absolute repo root. */
export function projectIdFor(remote: string | null, root: string): string {
  return sha256Hex(remote ? normalizeRemoteUrl(remote) : root);
}

/** A remote that is a folder on this machine (a bare repository): `/srv/git/shop.git`, `file://…`, `../origin`. */
export function isLocalRemote(remote: string): boolean {
  return /^(?:file:\/\/|\/|\.{1,2}[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(remote.trim());
}

/**
 * A human name for a project: the last path segment of its remote, or of its root when there
 * is no remote or the remote is a folder here (a bare repository's folder, often `origin.git`,
 * names the copy, not the project: issue 31 #15).
 */
export function projectNameFor(remote: string | null, root: string): string {
  const source = remote && !isLocalRemote(remote) ? normalizeRemoteUrl(remote) : root.replace(/[\\/]+$/, '');
  const parts = source.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? source;
}
