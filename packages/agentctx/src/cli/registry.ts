import type { Command } from './command.js';

type Loader = () => Promise<Command>;

/**
 * Every CLI command, loaded only when it runs. One file per command under ./commands, its help
 * included; this order is the order of `agentctx --help` within each group (most used first).
 */
export const COMMANDS: Readonly<Record<string, Loader>> = Object.freeze({
  demo: async () => (await import('./commands/demo.js')).command,
  search: async () => (await import('./commands/search.js')).command,
  show: async () => (await import('./commands/show.js')).command,
  record: async () => (await import('./commands/record.js')).command,
  supersede: async () => (await import('./commands/supersede.js')).command,
  status: async () => (await import('./commands/status.js')).command,
  export: async () => (await import('./commands/export.js')).command,
  ui: async () => (await import('./commands/ui.js')).command,
  init: async () => (await import('./commands/init.js')).command,
  doctor: async () => (await import('./commands/doctor.js')).command,
  config: async () => (await import('./commands/config.js')).command,
  profile: async () => (await import('./commands/profile.js')).command,
  uninstall: async () => (await import('./commands/uninstall.js')).command,
  consolidate: async () => (await import('./commands/consolidate.js')).command,
  extract: async () => (await import('./commands/extract.js')).command,
  sync: async () => (await import('./commands/sync.js')).command,
  review: async () => (await import('./commands/review.js')).command,
  confirm: async () => (await import('./commands/confirm.js')).command,
  retire: async () => (await import('./commands/retire.js')).command,
  merge: async () => (await import('./commands/merge.js')).command,
  team: async () => (await import('./commands/team.js')).command,
  incognito: async () => (await import('./commands/incognito.js')).command,
  import: async () => (await import('./commands/import.js')).command,
  promote: async () => (await import('./commands/promote.js')).command,
  scrub: async () => (await import('./commands/scrub.js')).command,
  reset: async () => (await import('./commands/reset.js')).command,
});

/** The loader of command `name`; own entries only, so `constructor` or `__proto__` are no command. */
export function commandLoader(name: string): Loader | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
