/** The dashboard's API client: same-origin fetches, each carrying the start-up token the server put in the page. */

function token(): string {
  return document.querySelector('meta[name="agentctx-token"]')?.getAttribute('content') ?? '';
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string; code?: string } } | null;
  if (!res.ok) {
    throw new ApiError(body?.error?.message ?? `HTTP ${res.status}`, res.status, body?.error?.code ?? 'http');
  }
  return body as T;
}

export async function getJson<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const qs = q.toString();
  return answer<T>(
    await fetch(`/api${path}${qs ? `?${qs}` : ''}`, {
      headers: { accept: 'application/json', 'x-agentctx-token': token() },
    }),
  );
}

export async function postJson<T>(path: string, body: unknown, project?: string): Promise<T> {
  const qs = project ? `?project=${encodeURIComponent(project)}` : '';
  return answer<T>(
    await fetch(`/api${path}${qs}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agentctx-token': token() },
      body: JSON.stringify(body),
    }),
  );
}
