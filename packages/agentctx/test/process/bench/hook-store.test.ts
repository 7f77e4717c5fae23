// The hook benchmarks measure SessionStart on a current digest and, separately, on a stale one:
// the store they build must leave a digest SessionStart takes as current, or the "session-start"
// column silently measures the recompose path (it did once: 1.85× instead of 1.25× at 10,000).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareStore } from '../../../src/bench/hook-store.js';
import { storePath } from '../../../src/bench/paths.js';
import { isCurrent } from '../../../src/core/digest/current-digest.js';
import { readDigest } from '../../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../../src/database/retirement.js';
import { tempDir } from '../../support/tmp.js';

const dir = tempDir('agentctx-bench-hook-store-');
afterAll(() => dir.cleanup());

describe('the hook benchmarks’ store', () => {
  it('leaves a digest that SessionStart takes as current, retired records included', () => {
    const store = prepareStore(dir.path, 600);
    const counters = readRetirementCounters(storePath(store.home));
    // the seeded store retires records through the repository: the counters moved
    expect(counters.begun).toBeGreaterThan(0);
    const digest = readDigest(join(store.home, '.agentctx', 'digests'), store.projectId);
    expect(digest).not.toBeNull();
    expect(isCurrent(digest!, counters)).toBe(true);
  }, 60_000);
});
