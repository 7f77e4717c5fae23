import { describe, expect, it } from 'vitest';
import { HELP } from '../../../src/cli/help-docs.js';
import { COMMANDS } from '../../../src/cli/registry.js';

describe('the help text', () => {
  it('documents every command, every one of its flags and no flag it does not have', async () => {
    expect(Object.keys(HELP).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const [name, load] of Object.entries(COMMANDS)) {
      const command = await load();
      const doc = HELP[name];
      expect(Object.keys(doc?.options ?? {}).sort(), name).toEqual(Object.keys(command.flags).sort());
      for (const [flag, text] of Object.entries(doc?.options ?? {}))
        expect(text.trim(), `${name} --${flag}`).not.toBe('');
      expect(doc?.line.trim(), name).not.toBe('');
      expect(doc?.examples.length, name).toBeGreaterThan(0);
      for (const e of doc?.examples ?? []) expect(e.startsWith(`agentctx ${name}`), e).toBe(true);
    }
  });
});
