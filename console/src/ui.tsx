import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { formErrors, type FormErrors } from './errors.ts';

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  hasNextPage: boolean;
}

/** Data loaded by `load`, again whenever `deps` change or `reload()` is called. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    loadRef.current().then(
      (data) => live && setState({ data, loading: false }),
      (e: unknown) => live && setState({ error: formErrors(e).form ?? String(e), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** A paginated list of the API: the page number is the component's, the rest is the API's answer. */
export function usePaged<T>(load: (page: number) => Promise<Page<T>>, deps: readonly unknown[]) {
  const [page, setPage] = useState(1);
  // A new filter starts again at page 1.
  useEffect(() => setPage(1), deps);
  const r = useLoad(() => load(page), [page, ...deps]);
  return { ...r, page, setPage };
}

export function Pager({ data, page, setPage }: { data?: Page<unknown>; page: number; setPage: (p: number) => void }) {
  if (!data) return null;
  const pages = Math.max(1, Math.ceil(data.total / data.limit));
  return (
    <div className="pager" aria-label="pagination">
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        ← Previous
      </button>
      <span>
        Page {data.page} of {pages} · {data.total} in all
      </span>
      <button type="button" disabled={!data.hasNextPage} onClick={() => setPage(page + 1)}>
        Next →
      </button>
    </div>
  );
}

export function Loading({ loading, error }: { loading: boolean; error?: string }) {
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  return loading ? <p className="muted">Loading…</p> : null;
}

/**
 * A form whose submit calls the API: busy while it runs, then the API's validation errors next
 * to the fields (`errors.fields`) and the rest above the buttons.
 */
export function useSubmit(submit: (data: FormData) => Promise<unknown>, fields: readonly string[] = [], options: { reset?: boolean } = {}) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>({ fields: {}, form: null });
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    setDone(null);
    try {
      const result = await submit(new FormData(form));
      // A form that adds something starts empty again, so that a second click does not add it twice.
      if (options.reset) form.reset();
      setErrors({ fields: {}, form: null });
      setDone(typeof result === 'string' ? result : 'Saved');
    } catch (err) {
      setErrors(formErrors(err, fields));
    } finally {
      setBusy(false);
    }
  };
  return { busy, errors, done, onSubmit };
}

export function Field({
  label,
  name,
  error,
  children,
  hint,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <label className={error ? 'field invalid' : 'field'} data-field={name}>
      <span>{label}</span>
      {children}
      {hint && !error ? <small className="muted">{hint}</small> : null}
      {error ? (
        <small className="field-error" role="alert">
          {error}
        </small>
      ) : null}
    </label>
  );
}

export function FormFooter({ busy, errors, done, label }: { busy: boolean; errors: FormErrors; done: string | null; label: string }) {
  return (
    <div className="form-footer">
      {errors.form ? (
        <p className="error" role="alert">
          {errors.form}
        </p>
      ) : null}
      {done && !errors.form && Object.keys(errors.fields).length === 0 ? (
        <p className="ok" role="status">
          {done}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Working…' : label}
      </button>
    </div>
  );
}

/** A form value as typed ('' when absent or a file). */
export const raw = (d: FormData, name: string): string => {
  const v = d.get(name);
  return typeof v === 'string' ? v : '';
};
/** Form values: '' (left empty) is "not sent". */
export const text = (d: FormData, name: string): string | undefined => {
  const v = d.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};
/** A number field: what was typed, as a number (the API says when it is not a valid one). */
export const num = (d: FormData, name: string): number | undefined => {
  const v = text(d, name);
  return v === undefined ? undefined : Number(v);
};
/**
 * A number field whose API property has a default (typed as always present): left empty, it is
 * left out of the JSON body and the API's default applies.
 */
export const numOrDefault = (d: FormData, name: string): number => num(d, name) as number;
/** A datetime-local field as an ISO instant (the browser's time zone). */
export const instant = (d: FormData, name: string): string | undefined => {
  const v = text(d, name);
  if (v === undefined) return undefined;
  const t = new Date(v);
  return Number.isNaN(t.getTime()) ? v : t.toISOString();
};
/** An ISO instant as a datetime-local value. */
export const localInput = (iso: string | null | undefined): string => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
/** The operator's time zone (the browser's), shown with every time and next to every time field. */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
// dateStyle/timeStyle cannot be combined with timeZoneName (a RangeError), hence the parts.
const WHEN = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});
/** An instant in the operator's local time, with its zone: "2 Dec 2026, 09:30 CET". */
export const when = (iso: string | null | undefined): string => (iso ? WHEN.format(new Date(iso)) : '—');
/** A status as a word for people: `REGISTERED` → "registered", `registration_open` → "registration open". */
export const statusWord = (status: string): string => status.toLowerCase().replace(/_/g, ' ');

export function Empty({ children }: { children: ReactNode }) {
  return <p className="muted empty">{children}</p>;
}
