/**
 * The git merge driver for `.agentctx/context.md` (issue 31 #3). Git's union merge works on
 * lines: when one developer superseded a block and another edited the same block by hand, it
 * interleaved the two bodies into one block under one marker, and the import took the mixture
 * for an ordinary edit: a conflict lost without a word. This driver merges by block instead:
 * per key, a side that did not change it takes the other's; when both changed it, both whole
 * versions are kept, one block each with the same key, which the import then sees as a conflict
 * (kept until a person chooses in `agentctx review`). Blocks added on both sides are all kept,
 * as union did. Pure: texts in, text out.
 */
import { blockSha, renderTeamFile, type TeamBlock } from './team-file.js';
import { type ParsedBlock, parseTeamFile } from './team-parse.js';

function byKey(blocks: readonly ParsedBlock[]): Map<string, ParsedBlock[]> {
  const out = new Map<string, ParsedBlock[]>();
  for (const b of blocks) {
    // a block added by hand has no key: its text is its identity
    const k = b.keyed ? b.key : `unkeyed:${blockSha(b)}`;
    out.set(k, [...(out.get(k) ?? []), b]);
  }
  return out;
}

function shas(blocks: readonly TeamBlock[] | undefined): string {
  return [...new Set((blocks ?? []).map(blockSha))].sort().join(',');
}

/** The merged file, or null when a side cannot be read whole (git then reports a conflict). */
export function mergeTeamFiles(base: string, ours: string, theirs: string): string | null {
  const [b, o, t] = [base, ours, theirs].map(parseTeamFile);
  if (o!.errors.length > 0 || t!.errors.length > 0) return null;
  const [bk, ok, tk] = [b!, o!, t!].map((f) => byKey(f.blocks));
  const keys = new Set([...ok!.keys(), ...tk!.keys()]);
  const merged: TeamBlock[] = [];
  for (const key of keys) {
    const was = shas(bk!.get(key));
    const mine = ok!.get(key);
    const other = tk!.get(key);
    let keep: TeamBlock[];
    if (shas(mine) === was) keep = other ?? [];
    else if (shas(other) === was) keep = mine ?? [];
    else keep = [...(mine ?? []), ...(other ?? [])]; // changed on both sides (or changed and removed): all
    const seen = new Set<string>();
    for (const block of keep) {
      const sha = blockSha(block);
      if (seen.has(sha)) continue;
      seen.add(sha);
      merged.push(block);
    }
  }
  return renderTeamFile(merged);
}
