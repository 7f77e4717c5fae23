import { AgentctxError } from '../../shared/errors.js';
import {
  BODY_MAX,
  type Confidence,
  isConfidence,
  isRecordType,
  isScope,
  RECORD_TYPES,
  type RecordType,
  type Scope,
  TITLE_MAX,
} from '../../shared/types.js';

/** Types that belong to one project by definition and cannot be global. */
const PROJECT_ONLY: readonly RecordType[] = ['handover', 'profile'];

interface RecordFields {
  type: RecordType;
  title: string;
  body: string;
  scope: Scope;
  confidence: Confidence;
}

function invalid(message: string, field: string): never {
  throw new AgentctxError('invalid_input', message, { field });
}

/**
 * A record body: a non-blank string of at most BODY_MAX characters, trimmed. Every write path
 * checks the body the developer gave with this, before anything is added to it (supersede
 * appends its rationale), so a blank body is refused everywhere alike.
 */
export function validateBody(body: unknown): string {
  const text = typeof body === 'string' ? body.trim() : '';
  if (!text) invalid('body must be a non-empty string', 'body');
  if ([...text].length > BODY_MAX) invalid(`body is longer than ${BODY_MAX} characters`, 'body');
  return text;
}

/** Check and normalise the user-supplied fields of a record. */
export function validateRecordFields(input: {
  type: unknown;
  title: unknown;
  body: unknown;
  scope?: unknown;
  confidence?: unknown;
}): RecordFields {
  if (!isRecordType(input.type)) {
    invalid(`type must be one of ${RECORD_TYPES.join(', ')} (got ${JSON.stringify(input.type)})`, 'type');
  }
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (!title) invalid('title must be a non-empty string', 'title');
  if ([...title].length > TITLE_MAX) invalid(`title is longer than ${TITLE_MAX} characters`, 'title');
  const body = validateBody(input.body);
  const scope = input.scope ?? 'project';
  if (!isScope(scope)) invalid(`scope must be project or global (got ${JSON.stringify(scope)})`, 'scope');
  if (scope === 'global' && PROJECT_ONLY.includes(input.type)) {
    invalid(`a ${input.type} record belongs to one project and cannot be global`, 'scope');
  }
  const confidence = input.confidence ?? 'inferred';
  if (!isConfidence(confidence)) invalid(`confidence must be explicit, inferred or reinforced`, 'confidence');
  return { type: input.type, title, body, scope, confidence };
}
