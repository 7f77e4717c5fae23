/** The text embedded for a record: its type, the day it became true, its title and its body. */
export function recordEmbeddingText(r: {
  type: string;
  valid_from: string;
  title: string;
  body: string;
}): string {
  const day = r.valid_from.slice(0, 10);
  const body = r.body.replace(/\s+/g, ' ').trim();
  return `[${r.type}] [${day}] ${r.title.trim()} — ${body}`;
}
