/** What a redacted secret leaves behind: `[REDACTED:<kind>]`, so a reader still knows what stood there. */

/** Every placeholder starts with this; no rule redacts text that does. */
export const PLACEHOLDER_PREFIX = '[REDACTED:';

export function placeholder(kind: string): string {
  return `${PLACEHOLDER_PREFIX}${kind}]`;
}
