/** How drift reads a record's text: the statement without its rationale, folded for matching or display. */

/** The part of a body that states the fact: before the "Why it changed:" rationale. */
export function statement(body: string): string {
  const at = body.indexOf('\nWhy it changed:');
  return (at === -1 ? body : body.slice(0, at)).slice(0, 600);
}

export function lowerOf(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
