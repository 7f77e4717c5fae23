/**
 * What the detectors gather before it becomes a profile: every detector appends to these lists
 * in turn (order matters: earlier entries win when the lists are cut), and the first name found
 * is kept.
 */
export interface Findings {
  name: string | undefined;
  stack: string[];
  managers: string[];
  build: string[];
  test: string[];
  lint: string[];
  entries: string[];
  workspaces: string[];
}

export function emptyFindings(): Findings {
  return {
    name: undefined,
    stack: [],
    managers: [],
    build: [],
    test: [],
    lint: [],
    entries: [],
    workspaces: [],
  };
}

/** The non-empty strings of `xs`, first occurrence kept, in order. */
export function uniq(xs: (string | undefined | null | false)[]): string[] {
  return [...new Set(xs.filter((x): x is string => typeof x === 'string' && x.length > 0))];
}
