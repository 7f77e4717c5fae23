import { answer, userText } from './extract-harness.js';
import type { FakeReply, RecordedRequest } from './fake-messages-api.js';

/**
 * A scripted extraction model that does exactly what agentctx's prompt and tool schema ask,
 * for the few facts it understands. It reads the request as a real model would: the system
 * prompt's rules, the record_context tool's schema, the "existing records" list (ids, types,
 * confidence) and the transcript's "Developer:" lines. It never sees agentctx's store.
 *
 * A fact it understands is a `Concept`: how to recognise the developer saying it, how to
 * recognise a listed record that already holds it, and how it would write the fact in its own
 * words (a different wording each session, as a model would). When a listed record already
 * holds the fact it follows the prompt: reports the record's id in `reinforces` if the prompt
 * and the schema offer that, otherwise skips the fact (rule "skip anything already covered").
 */

export interface Concept {
  /** The developer said it (tested on each "Developer:" line). */
  said: RegExp;
  /** A listed record's title holds the same fact. */
  listed: RegExp;
  /** The preference as this model would phrase it in session n (0-based). */
  phrase: (n: number) => string;
  category: 'style' | 'tooling' | 'process' | 'naming';
  scope: 'project' | 'global';
}

export interface ListedRecord {
  id: string;
  type: string;
  confidence: string;
  title: string;
}

function systemText(req: RecordedRequest): string {
  const s = req.body.system;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => String((b as { text?: string }).text ?? '')).join('\n') : '';
}

function toolProperties(req: RecordedRequest): Record<string, unknown> {
  const tools = (req.body.tools ?? []) as { name?: string; input_schema?: { properties?: object } }[];
  const t = tools.find((x) => x.name === 'record_context');
  return (t?.input_schema?.properties ?? {}) as Record<string, unknown>;
}

/** The existing records the message lists: "- ID [type] Title" or "- ID [type, confidence] Title". */
export function listedRecords(user: string): ListedRecord[] {
  const out: ListedRecord[] = [];
  for (const m of user.matchAll(/^- (\S+) \[(\w+)(?:, (\w+))?\] (.+)$/gm)) {
    out.push({ id: m[1]!, type: m[2]!, confidence: m[3] ?? 'explicit', title: m[4]! });
  }
  return out;
}

/** The prompt asks for re-sightings by id: the schema has the field and the rules say when to use it. */
export function offersReinforces(req: RecordedRequest): boolean {
  return 'reinforces' in toolProperties(req) && /"reinforces"/.test(systemText(req));
}

/**
 * The model's reply to one extraction request. `session` picks the wording of a fact it writes
 * (its own words differ from one session to the next).
 */
export function followPrompt(req: RecordedRequest, concepts: readonly Concept[], session: number): FakeReply {
  const user = userText(req);
  const transcript = user.slice(user.indexOf('<transcript>'));
  const developer = [...transcript.matchAll(/^Developer: (.+)$/gm)].map((m) => m[1]!);
  const listed = listedRecords(user);
  const canReinforce = offersReinforces(req);
  const preferences: Record<string, unknown>[] = [];
  const reinforces: { id: string; confidence: string }[] = [];
  for (const c of concepts) {
    if (!developer.some((line) => c.said.test(line))) continue;
    const known = listed.find((r) => r.type === 'preference' && c.listed.test(r.title));
    if (known) {
      // already covered: the prompt says skip it, or report the sighting by id when offered
      if (canReinforce && known.confidence !== 'explicit')
        reinforces.push({ id: known.id, confidence: 'inferred' });
      continue;
    }
    preferences.push({
      category: c.category,
      rule: c.phrase(session),
      confidence: 'inferred',
      scope: c.scope,
    });
  }
  return answer({ preferences, ...(canReinforce ? { reinforces } : {}) });
}
