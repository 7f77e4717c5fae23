/**
 * What `agentctx --help` and `agentctx <command> --help` say: each command's group, its one
 * line, a line per option and real examples. Kept beside the registry, not in the command
 * files, so the help reads as one text; a test checks that every declared flag is described
 * here and nothing else is.
 */

export type Group = 'everyday' | 'setup' | 'maintenance';

export const GROUP_TITLES: Record<Group, string> = {
  everyday: 'Everyday',
  setup: 'Setup',
  maintenance: 'Maintenance (mostly run for you by the hooks)',
};

interface CommandDoc {
  group: Group;
  /** One line for the command list. */
  line: string;
  /** Option name (as typed, without dashes) → what it does. */
  options: Record<string, string>;
  examples: string[];
}

export const COMMON_OPTIONS: Record<string, string> = {
  json: 'print exactly one JSON object (for scripts)',
  cwd: 'run as if started in DIR (the project is the git repository around it)',
  help: 'show this help',
};

export const HELP: Readonly<Record<string, CommandDoc>> = Object.freeze({
  demo: {
    group: 'everyday',
    line: 'watch the whole loop in seconds, in a throwaway project (no API key)',
    options: { keep: 'keep the demo folder (a new or empty DIR) to look at it with agentctx ui' },
    examples: ['agentctx demo', 'agentctx demo --keep /tmp/agentctx-demo'],
  },
  search: {
    group: 'everyday',
    line: 'find records about something (an index: id, type, title, age)',
    options: {
      type: 'only records of this type (decision, convention, preference, discovery, bugfix, handover, profile)',
      scope: 'project or global',
      limit: 'at most N results',
      history: 'include superseded records',
      'as-of': 'what was true on DATE (valid then, not yet superseded)',
      'known-at': 'what agentctx had recorded by DATE (with --as-of: as known then)',
    },
    examples: ['agentctx search "sqlite concurrency"', 'agentctx search retries --type decision --limit 5'],
  },
  show: {
    group: 'everyday',
    line: 'one record in full, with its supersession chain',
    options: {
      'as-of': 'what was true on DATE (valid then, not yet superseded)',
      'known-at': 'what agentctx had recorded by DATE (with --as-of: as known then)',
    },
    examples: [
      'agentctx show 01JDQ8ZK4M3N5P7Q9R1S3T5V7W',
      'agentctx show 01JDQ8ZK4M3N5P7Q9R1S3T5V7W --as-of 2026-06-01',
    ],
  },
  record: {
    group: 'everyday',
    line: 'record a decision, convention, preference, … yourself',
    options: {
      type: 'decision, convention, preference, discovery, bugfix, handover or profile',
      title: 'one line, at most 120 characters',
      body: 'the fact and its rationale, at most 2,000 characters',
      scope: 'project (default) or global (your preferences everywhere)',
      supersedes: 'id of the current record this one replaces',
      pin: 'always show it in the digest',
    },
    examples: [
      'agentctx record --type decision --title "SQLite in WAL mode" --body "Concurrent hook processes write."',
      'agentctx record --type preference --scope global --title "Small commits" --body "Each with its test."',
    ],
  },
  supersede: {
    group: 'everyday',
    line: 'replace a record with a new version (the old one becomes history)',
    options: {
      body: 'the new body',
      rationale: 'why it changed',
      title: 'a new title (the old one is kept otherwise)',
    },
    examples: [
      'agentctx supersede 01JDQ8ZK… --body "Postgres, for row-level locks." --rationale "multi-writer load"',
    ],
  },
  status: {
    group: 'everyday',
    line: 'is it working here, what it knows, what it cost, what needs you',
    options: {
      verbose: 'the rest: store, tokens and their use, extraction backends, maintenance, retrieval',
    },
    examples: ['agentctx status', 'agentctx status --verbose', 'agentctx status --json'],
  },
  export: {
    group: 'everyday',
    line: 'the project (or your global profile) as Markdown',
    options: {
      out: 'write to FILE instead of printing',
      history: 'include superseded records',
      profile: 'export the global profile to ~/.agentctx/profile instead',
      'as-of': 'what was true on DATE (valid then, not yet superseded)',
      'known-at': 'what agentctx had recorded by DATE (with --as-of: as known then)',
    },
    examples: ['agentctx export --out context.md', 'agentctx export --profile'],
  },
  ui: {
    group: 'everyday',
    line: 'open the dashboard on 127.0.0.1',
    options: {
      port: 'port to listen on (0: any free one)',
      open: 'open the browser (--no-open: print the URL, with its access token, only)',
    },
    examples: ['agentctx ui', 'agentctx ui --port 0 --no-open'],
  },
  init: {
    group: 'setup',
    line: 'register the hooks and the MCP server in Claude Code (or Codex); --semantic adds embeddings',
    options: {
      agent:
        'claude-code (the default), codex (hooks in $CODEX_HOME/hooks.json, trusted through codex app-server; MCP in config.toml), qwen (~/.qwen/settings.json), gemini (~/.gemini/settings.json), opencode (a plugin module and mcp in ~/.config/opencode), cursor (~/.cursor/hooks.json, mcp.json), copilot (~/.copilot/hooks/agentctx.json, mcp-config.json) or all (every agent found)',
      project: "write the hooks into this repository's .claude/settings.json instead of yours",
      'claude-cli':
        'register the MCP server through `claude mcp add` when claude is on PATH (--no-claude-cli: edit the file)',
      'download-model': 'download the embedding model now',
      semantic:
        'install the semantic layer (transformers.js) into ~/.agentctx/semantic and download the model',
    },
    examples: [
      'agentctx init',
      'agentctx init --agent codex',
      'agentctx init --agent qwen',
      'agentctx init --agent all',
      'agentctx init --semantic',
    ],
  },
  doctor: {
    group: 'setup',
    line: 'check that agentctx works here, and say what to do when it does not',
    options: {},
    examples: ['agentctx doctor', 'agentctx doctor --json'],
  },
  config: {
    group: 'setup',
    line: 'show or change settings (model backend, embeddings, redaction patterns)',
    options: {
      llm: 'use a model for extraction (--no-llm: rules only)',
      embeddings: 'turn the semantic layer on (--no-embeddings: keyword-only)',
      'llm-backend': 'auto, api, claude-cli, codex-cli or off',
      'model-tier': 'embedding model tier: default or quality',
    },
    examples: ['agentctx config', 'agentctx config set reinforceThreshold 4', 'agentctx config --no-llm'],
  },
  profile: {
    group: 'setup',
    line: 'your global preferences: show, edit, clear, export',
    options: { body: 'the corrected text (profile edit)', title: 'a corrected title (profile edit)' },
    examples: ['agentctx profile', 'agentctx profile edit 01JDQ8ZK… --body "Tabs, width 4."'],
  },
  uninstall: {
    group: 'setup',
    line: 'remove what init added, in every agent (--purge also deletes ~/.agentctx)',
    options: {
      agent:
        'only this agent: claude-code, codex, qwen, gemini, opencode, cursor, copilot or all (the default)',
      project: "remove the hooks from this repository's .claude/settings.json",
      purge: 'also delete ~/.agentctx (asks first)',
      yes: 'do not ask',
    },
    examples: ['agentctx uninstall', 'agentctx uninstall --agent codex', 'agentctx uninstall --purge --yes'],
  },
  consolidate: {
    group: 'maintenance',
    line: 'scores, duplicates, CLAUDE.md drift and the next digest (after each session)',
    options: {
      'budget-ms': 'time box in milliseconds (default 60000)',
      rebuild: 'rebuild the near-duplicate list from the records',
      'rebuild-embeddings': 're-embed every record',
    },
    examples: ['agentctx consolidate', 'agentctx consolidate --rebuild-embeddings'],
  },
  extract: {
    group: 'maintenance',
    line: "turn a session's transcript into records (run by the Stop hook)",
    options: {
      'session-id': "the agent's session id",
      transcript: "the session's transcript file (.jsonl; Codex: its rollout file)",
      agent: 'whose transcript it is: claude-code (the default) or codex',
      precompact: 'write only the rule-built handover (PreCompact)',
    },
    examples: ['agentctx extract --session-id 3f2a… --transcript ~/.claude/projects/my-app/3f2a….jsonl'],
  },
  sync: {
    group: 'maintenance',
    line: 'compare CLAUDE.md with the recorded decisions; propose a diff',
    options: {
      limit: 'at most N changes per page',
      offset: 'skip the first N changes',
      apply: 'write the proposed CLAUDE.md (asks first)',
    },
    examples: ['agentctx sync', 'agentctx sync --apply'],
  },
  review: {
    group: 'everyday',
    line: 'walk what needs you: team conflicts, team-file changes, records whose files changed, near-duplicates, unconfirmed records',
    options: {
      kind: 'only items of one kind: conflict, team, stale, duplicate or inferred',
      limit: 'at most N items of each kind (default 50)',
      confirm: 'answer item KEY (or a record id): the record is still true / take in the team file',
      supersede: 'answer item KEY with a new version of the record (with --body and --rationale)',
      merge: 'answer near-duplicate item KEY: merge the pair',
      dismiss: 'answer item KEY: retire the record, or keep the pair apart',
      body: 'with --supersede: the new text',
      rationale: 'with --supersede: why it changed',
      title: 'with --supersede: a new title',
      choose: 'answer team conflict item KEY: keep one version (with --version)',
      version: 'with --choose: the version that stays, by its number in the item or its record id',
    },
    examples: [
      'agentctx review',
      'agentctx review --choose conflict:01JDQ8… --version 2',
      'agentctx review --json',
      'agentctx review --confirm stale:01JDQ8…',
      'agentctx review --merge pair:01JDQ8…:01JDQ9…',
    ],
  },
  confirm: {
    group: 'everyday',
    line: 'say a record is still true (inferred → reinforced; its files anchored anew, no longer stale)',
    options: {},
    examples: ['agentctx confirm 01JDQ8…'],
  },
  retire: {
    group: 'everyday',
    line: 'close a record that is no longer true, without a successor (kept in history)',
    options: {},
    examples: ['agentctx retire 01JDQ8…'],
  },
  merge: {
    group: 'maintenance',
    line: 'confirm or dismiss a near-duplicate pair',
    options: { dismiss: 'keep both records and stop proposing the pair' },
    examples: ['agentctx merge 01JDQ8… 01JDQ9…', 'agentctx merge 01JDQ8… 01JDQ9… --dismiss'],
  },
  team: {
    group: 'everyday',
    line: 'team context in git: export, import or status of .agentctx/context.md',
    options: {
      yes: 'import: close records whose block was removed, without asking',
      force: 'export: overwrite a file that holds changes not imported yet',
      file: 'use FILE instead of <repo>/.agentctx/context.md',
    },
    examples: ['agentctx team export', 'agentctx team import', 'agentctx team status'],
  },
  incognito: {
    group: 'everyday',
    line: 'one session with nothing captured and nothing injected (the next one switches it off)',
    options: {
      session: 'this Claude Code session id instead of the next session (the plugin command passes it)',
    },
    examples: ['agentctx incognito', 'agentctx incognito off', 'agentctx incognito status'],
  },
  import: {
    group: 'setup',
    line: "take Claude Code's auto-memory notes in as records (a second import adds nothing)",
    options: { dir: "read the notes from DIR instead of this project's auto-memory folder" },
    examples: ['agentctx import claude-memory', 'agentctx import claude-memory --json'],
  },
  promote: {
    group: 'everyday',
    line: 'mark records as team records (they go into .agentctx/context.md)',
    options: {},
    examples: ['agentctx promote 01JDQ8ZK4M3N5P7Q9R1S3T5V7W'],
  },
  scrub: {
    group: 'maintenance',
    line: 'redact secrets stored before the redaction gate, in place (consolidate runs it too)',
    options: { 'budget-ms': 'time box in milliseconds' },
    examples: ['agentctx scrub', 'agentctx scrub --json'],
  },
  reset: {
    group: 'maintenance',
    line: "delete this project's records (asks first)",
    options: { global: 'also clear the global profile', yes: 'do not ask' },
    examples: ['agentctx reset', 'agentctx reset --global --yes'],
  },
});
