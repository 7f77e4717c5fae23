/**
 * The pieces the rule tables are written with: the rule shape, the words that make a name
 * key-like, and boundaries that also hold inside JSON-escaped text.
 */

export interface RedactionRule {
  /** The placeholder's type: `[REDACTED:<kind>]`. */
  kind: string;
  pattern: RegExp;
  /**
   * A literal that every match needs in the text (case as written): a text without it skips the
   * rule. For patterns whose every attempt is costly, such as a long lookbehind tried at each
   * position (the AWS secret key after its id cost 2.8 s of a 10,000-record scrub without it).
   */
  needs?: string;
  /**
   * Build the replacement from the match; default: the whole match becomes the placeholder.
   * Return the match unchanged to keep it (a value that is not a secret after all).
   */
  replace?: (match: string, groups: Record<string, string | undefined>) => string;
}

/** Words that make a name key-like: its value is a secret whatever it looks like. */
export const SECRET_NAME =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key(?:[_-]?id)?|secret[_-]?key|auth[_-]?key|client[_-]?secret|credentials?|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key)';

/*
 * Text often holds JSON-escaped output ("stdout":"done\nghp_…" with a backslash and an n), where
 * the escaped line break glues a letter to what follows it. A word character right after a
 * backslash does not count against a boundary, and an escaped \n, \r or \t counts as
 * whitespace between a name and its value. (Each boundary is one lookbehind, so the engine
 * still finds a rule's literal prefix fast.)
 */

/** Left boundary that also treats - and _ as word characters. */
export const B = '(?<!(?<!\\\\)[A-Za-z0-9_-])';
/** `\b` before a word character, that also holds right after an escape. */
export const WB = '(?<!(?<!\\\\)\\w)';
/** Whitespace, or an escaped line break or tab. */
export const SP = '(?:\\s|\\\\[nrt])';
/** A quote, maybe escaped (a backslash and a quote inside a JSON string). */
export const Q = '(?:\\\\?["\'`])';
/** One character of an unquoted value: not a space, quote or closer, nor the start of an escape. */
export const BARE = '(?:[^\\s"\'`,;&)}\\]\\\\]|\\\\(?![nrt"\'\\\\]))';
