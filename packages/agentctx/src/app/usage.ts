import { basename } from 'node:path';
import type { UsageEvent } from '../claude/transcript-usage.js';
import { judgeSession, judgeSessionEvents, type SessionUsage } from '../core/usage/judge-session.js';
import { foldJournalFile } from '../database/journal-fold.js';
import { errorMessage } from '../shared/errors.js';
import type { App } from './context.js';
import { appendLog } from './log.js';
import { sessionJournalPath } from './paths.js';

/**
 * Usage evidence after a session's extraction: fold its journal (the records its hooks
 * injected), then judge from the transcript which of the records it was shown it used
 * (core/usage). Never throws: evidence that cannot be gathered now is gathered at the next Stop.
 */
export function judgeSessionUsage(
  app: App,
  sessionId: string,
  transcriptPath: string,
  /** Another agent's transcript, already read into usage events (Claude Code's is read here). */
  events?: readonly UsageEvent[],
): SessionUsage | null {
  const log = (m: string) => appendLog(app.paths.logs, 'usage', m);
  try {
    const db = app.db;
    const journal = sessionJournalPath(app.paths, sessionId);
    foldJournalFile(db, app.paths.journal, basename(journal), { now: app.clock() });
    const usage = events
      ? judgeSessionEvents(db, sessionId, events, app.clock())
      : judgeSession(db, sessionId, transcriptPath, app.clock());
    if (usage.changed > 0) {
      log(
        `session ${sessionId}: ${usage.shown} shown, ${usage.used} used, ${usage.unused} unused, ${usage.contradicted} contradicted`,
      );
    }
    return usage;
  } catch (err) {
    log(`session ${sessionId}: usage not judged: ${errorMessage(err)}`);
    return null;
  }
}
