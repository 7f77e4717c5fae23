import { toolNames } from './agent-requests.js';
import type { FakeReply, RecordedRequest } from './fake-messages-api.js';

/**
 * The model of the new user's walk-through (test/e2e/new-user-walk.test.ts), played by the fake
 * Messages API: the extraction of the first session's transcript yields a decision and a
 * handover, once; every other request gets a short answer.
 */

export const DECISION = 'Invoices are stored as PDF files in object storage';
export const DECISION_MARK = 'WALK-DECISION-5e21';
export const HANDOVER_MARK = 'WALK-HANDOVER-a7c3';
export const S1_MARK = 'WALK-SESSION-ONE';

/** agentctx's extraction request: it offers the record_context tool. */
export const isExtraction = (req: RecordedRequest) => toolNames(req).includes('record_context');
const text = (t: string): FakeReply => ({ content: [{ type: 'text', text: t }] });

let cannedSent = false;

/**
 * The model: the extraction of session 1's transcript yields a decision and a handover, once
 * (a later transcript quoting session 1 finds nothing new); everything else gets a short answer.
 */
export function walkModel(req: RecordedRequest): FakeReply {
  if (!isExtraction(req)) return text('Noted.');
  const first = !cannedSent && req.raw.includes(S1_MARK);
  if (first) cannedSent = true;
  return {
    content: [
      {
        type: 'tool_use',
        name: 'record_context',
        input: {
          decisions: first
            ? [
                {
                  what: `${DECISION}, never in the database (${DECISION_MARK}).`,
                  rationale: 'They are large and never queried.',
                  supersedes: null,
                  confidence: 'explicit',
                },
              ]
            : [],
          preferences: [],
          conventions: [],
          active_work: first
            ? {
                current_task: `Move the invoice PDFs out of the database (${HANDOVER_MARK})`,
                blockers: [],
                next_steps: ['Write the migration that copies the blobs out'],
                open_questions: [],
              }
            : null,
          gotchas: [],
          flush_ok: !first,
        },
      },
    ],
  };
}
