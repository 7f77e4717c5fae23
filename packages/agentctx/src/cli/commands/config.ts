import { existsSync } from 'node:fs';
import { getConfigValue, saveConfig, setConfigValue } from '../../app/config.js';
import { compileExtraPatterns } from '../../core/redaction/redact.js';
import { decideBackend } from '../../llm/select.js';
import { AgentctxError } from '../../shared/errors.js';
import { str } from '../args.js';
import type { Command } from '../command.js';
import { embeddingsCheck } from '../doctor/store-checks.js';

export const command: Command = {
  name: 'config',
  summary: 'Show or change settings in config.json.',
  usage:
    'agentctx config [get KEY | set KEY VALUE] [--no-llm|--llm] [--llm-backend auto|api|claude-cli|codex-cli|off] [--no-embeddings|--embeddings] [--model-tier default|quality] [--json]',
  group: 'setup',
  line: 'show or change settings (model backend, embeddings, redaction patterns)',
  options: {
    llm: { kind: 'boolean', help: 'use a model for extraction (--no-llm: rules only)' },
    embeddings: { kind: 'boolean', help: 'turn the semantic layer on (--no-embeddings: keyword-only)' },
    'llm-backend': { kind: 'string', help: 'auto, api, claude-cli, codex-cli or off' },
    'model-tier': { kind: 'string', help: 'embedding model tier: default or quality' },
  },
  examples: ['agentctx config', 'agentctx config set reinforceThreshold 4', 'agentctx config --no-llm'],
  async run({ args, app }) {
    const a = app();
    let config = a.config;
    const [verb, key, ...valueParts] = args.positionals;
    const sets: [string, string][] = [];
    if (args.flags.llm !== undefined) sets.push(['llm.enabled', String(args.flags.llm)]);
    if (args.flags.embeddings !== undefined) sets.push(['embeddings.enabled', String(args.flags.embeddings)]);
    const backend = str(args.flags, 'llmBackend');
    if (backend) sets.push(['llm.backend', backend]);
    const tier = str(args.flags, 'modelTier');
    if (tier) sets.push(['modelTier', tier]);
    if (verb === 'get') {
      if (!key) throw new AgentctxError('usage', 'config get needs a KEY');
      const value = getConfigValue(config, key);
      return {
        json: { [key]: value },
        text: typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value),
      };
    }
    if (verb === 'set') {
      if (!key || valueParts.length === 0)
        throw new AgentctxError('usage', 'config set needs a KEY and a VALUE');
      sets.push([key, valueParts.join(' ')]);
    } else if (verb !== undefined) {
      throw new AgentctxError('usage', `unknown config action ${JSON.stringify(verb)}; use get or set`);
    }
    for (const [k, v] of sets) config = setConfigValue(config, k, v);
    if (sets.length > 0) saveConfig(a.paths.config, config);
    // invalid user redaction patterns are skipped at extraction time; say so here
    const patternErrors = compileExtraPatterns(config.redact?.extraPatterns).errors;
    // what the settings come to here, in doctor's words: `embeddings.enabled: true` allows the
    // layer, the model or runtime may still be missing (issue 31 #12)
    const embeddings = await embeddingsCheck(a, existsSync(a.paths.db), config);
    const llm = decideBackend(config.llm, a.env);
    const effective = {
      embeddings: embeddings.summary,
      extraction_from_this_shell: `${llm.active ?? 'none (rule-based)'}: ${llm.reason}`,
    };
    return {
      json: {
        config,
        path: a.paths.config,
        changed: sets.map(([k]) => k),
        effective,
        ...(patternErrors.length > 0 ? { redact_pattern_errors: patternErrors } : {}),
      },
      text: [
        JSON.stringify(config, null, 2),
        'in effect here (as agentctx doctor says):',
        `  embeddings  ${effective.embeddings}`,
        `  extraction  ${effective.extraction_from_this_shell} (sessions: see agentctx status)`,
        ...patternErrors.map(
          (e) => `warning: redact pattern ${JSON.stringify(e.pattern)} is skipped: ${e.error}`,
        ),
      ].join('\n'),
    };
  },
};
