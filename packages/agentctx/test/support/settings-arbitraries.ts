import fc from 'fast-check';

/**
 * Settings files a user may have, for the init/uninstall round trips: other hooks (grouped as
 * Claude Code writes them, or flat as Cursor and Copilot CLI do), other MCP servers (one maybe
 * named agentctx), empty containers, any layout (indent, tabs, one line, CRLF, final newline).
 */

const key = fc.constantFrom('model', 'theme', 'env', 'ui', '$version', 'permissions', 'x-y', 'ünï');
const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const plain = fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar, { maxKeys: 3 })), {
  maxKeys: 4,
});

const claudeGroup = fc.record({
  matcher: fc.option(fc.constantFrom('*', 'Bash'), { nil: undefined }),
  hooks: fc.array(
    fc.record({ type: fc.constant('command'), command: fc.constantFrom('echo hi', 'audit --x') }),
    {
      maxLength: 2,
    },
  ),
});
export const claudeHooks = fc.dictionary(
  fc.constantFrom('SessionStart', 'Stop', 'PreToolUse', 'BeforeAgent', 'AfterTool'),
  fc.array(claudeGroup, { maxLength: 2 }),
  { maxKeys: 3 },
);
export const flatHooks = fc.dictionary(
  fc.constantFrom('sessionStart', 'stop', 'beforeShellExecution', 'postToolUse'),
  fc.array(fc.record({ command: fc.constantFrom('./audit.sh', 'notify'), bash: fc.constantFrom('echo x') }), {
    maxLength: 2,
  }),
  { maxKeys: 3 },
);
const servers = fc.dictionary(
  fc.constantFrom('github', 'db', 'agentctx'),
  fc.record({
    command: fc.constantFrom('gh-mcp', 'my-agentctx'),
    args: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
  }),
  { maxKeys: 2 },
);

const layout = fc.record({
  indent: fc.constantFrom(0, 2, 4, '\t'),
  crlf: fc.boolean(),
  trailing: fc.constantFrom('', '\n', '\n\n'),
});

function render(obj: unknown, l: { indent: number | string; crlf: boolean; trailing: string }): string {
  const text = JSON.stringify(obj, null, l.indent) + l.trailing;
  return l.crlf ? text.replace(/\n/g, '\r\n') : text;
}

/** A user's file: nothing at all, blank, or an object with some of these parts. */
export const file = (hooks: fc.Arbitrary<unknown>, serversKey: string) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(null, '', '\n', '{}') },
    {
      weight: 6,
      arbitrary: fc
        .record({
          base: plain,
          hooks: fc.option(hooks, { nil: undefined }),
          servers: fc.option(servers, { nil: undefined }),
          layout,
        })
        .map(({ base, hooks: h, servers: s, layout: l }) =>
          render({ ...base, ...(h ? { hooks: h } : {}), ...(s ? { [serversKey]: s } : {}) }, l),
        ),
    },
  );
