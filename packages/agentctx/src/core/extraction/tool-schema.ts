import { BUGFIX_ENRICHMENTS_PROPERTY } from './bugfix-stubs.js';

/**
 * The `record_context` tool: the model is forced to call it, and its input schema is the
 * The extraction output (CONTRACTS.md §extraction-output) plus `reinforces` (re-sightings of listed
 * records by id, CONTRACTS.md §confidence). Readable on purpose — this is part of the extraction
 * contract.
 */
const confidence = {
  type: 'string',
  enum: ['explicit', 'inferred'],
  description: 'explicit: the developer said or chose it directly. inferred: a pattern you observed.',
} as const;

const stringList = { type: 'array', items: { type: 'string' } } as const;

export const RECORD_CONTEXT_TOOL = {
  name: 'record_context',
  description:
    'Record the durable project context found in this session transcript. Call exactly once. ' +
    'Use empty arrays when nothing qualifies; set flush_ok to true when the session holds nothing worth keeping.',
  input_schema: {
    type: 'object',
    properties: {
      decisions: {
        type: 'array',
        description: 'Technical or architectural choices the developer made or accepted, one per entry.',
        items: {
          type: 'object',
          properties: {
            what: { type: 'string', description: 'The choice, stated on its own (one or two sentences).' },
            rationale: { type: 'string', description: 'Why, as the developer gave it; empty if not given.' },
            supersedes: {
              type: ['string', 'null'],
              description: 'Id of a listed existing record this decision replaces, else null.',
            },
            confidence,
          },
          required: ['what', 'rationale', 'supersedes', 'confidence'],
        },
      },
      preferences: {
        type: 'array',
        description: 'How this developer likes to work.',
        items: {
          type: 'object',
          properties: {
            category: { type: 'string', enum: ['style', 'tooling', 'process', 'naming'] },
            rule: { type: 'string', description: 'The preference as a rule, e.g. "Use pnpm, never npm".' },
            confidence,
            scope: {
              type: 'string',
              enum: ['project', 'global'],
              description: 'global only when the developer says it holds for all their work.',
            },
          },
          required: ['category', 'rule', 'confidence', 'scope'],
        },
      },
      conventions: {
        type: 'array',
        description: 'Rules about how code is written in this project.',
        items: {
          type: 'object',
          properties: {
            scope: { type: 'string', enum: ['file', 'module', 'project'] },
            convention: { type: 'string' },
            confidence,
          },
          required: ['scope', 'convention', 'confidence'],
        },
      },
      active_work: {
        type: 'object',
        description: 'Where the work stands at the end of the transcript, for the next session.',
        properties: {
          current_task: { type: 'string' },
          blockers: stringList,
          next_steps: stringList,
          open_questions: stringList,
        },
        required: ['current_task', 'blockers', 'next_steps', 'open_questions'],
      },
      // one of agentctx's own fields (CONTRACTS.md §extraction-output), and optional: bugfix-stubs.ts
      bugfix_enrichments: BUGFIX_ENRICHMENTS_PROPERTY,
      gotchas: {
        type: 'array',
        description: 'Non-obvious behaviour of the codebase or its tools that bit or would bite.',
        items: {
          type: 'object',
          properties: { pattern: { type: 'string' }, why_it_matters: { type: 'string' } },
          required: ['pattern', 'why_it_matters'],
        },
      },
      reinforces: {
        type: 'array',
        description:
          'Listed existing records marked inferred or reinforced that this session shows again (the developer ' +
          'restated, applied or confirmed the same fact, in any words), by id. Only ids from the list; empty if none.',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'The id of a listed record.' },
            confidence: {
              type: 'string',
              enum: ['explicit', 'inferred'],
              description:
                'explicit: the developer stated or confirmed it directly. inferred: you observed it again.',
            },
          },
          required: ['id', 'confidence'],
        },
      },
      flush_ok: {
        type: 'boolean',
        description: 'true when the session was trivial and nothing should be recorded.',
      },
    },
    // reinforces stays optional: an answer without agentctx's own fields is still valid (Claude
    // Code's StructuredOutput, behind the claude-cli backend, rejects an answer missing a required
    // field)
    required: ['decisions', 'preferences', 'conventions', 'active_work', 'gotchas', 'flush_ok'],
  },
} as const;
