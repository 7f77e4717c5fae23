import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { ago, dateTime, TYPE_COLOURS } from './format.js';

export function TypeBadge({ type }: { type: string }) {
  return (
    <span class="badge type" style={{ '--c': TYPE_COLOURS[type] ?? '#888' }}>
      {type}
    </span>
  );
}

export function ConfidenceBadge({ confidence }: { confidence: string }) {
  return <span class={`badge conf conf-${confidence}`}>{confidence}</span>;
}

export function Ago({ iso }: { iso: string | null | undefined }) {
  return iso ? (
    <time dateTime={iso} title={dateTime(iso)}>
      {ago(iso)}
    </time>
  ) : (
    <span>—</span>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const msg = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <p class="note error" role="alert">
      {msg}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="note empty">{children}</p>;
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Fetch on mount and whenever `key` changes; `reload()` fetches again. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  return {
    data: state.data,
    error: state.error,
    loading: state.loading,
    reload: () => setTick((t) => t + 1),
  };
}

/** The box's size in CSS pixels, followed as the window or the layout changes it. */
export function useSize(ref: { current: HTMLElement | null }): { w: number; h: number } {
  const [size, setSize] = useState({ w: 0, h: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => setSize({ w: Math.floor(el.clientWidth), h: Math.floor(el.clientHeight) });
    read();
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref.current]);
  return size;
}
