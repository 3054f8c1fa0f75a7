/**
 * The signed-in operator: the tenant's API key, kept in sessionStorage only (gone with the tab,
 * never in a URL or localStorage), and the tenant it belongs to.
 */
const KEY = 'cgs.console.session';

export interface Session {
  apiKey: string;
  tenantId: string;
  tenantName: string;
}

type Listener = (session: Session | null, reason?: string) => void;
const listeners = new Set<Listener>();

export function currentSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<Session>;
    return typeof s.apiKey === 'string' && typeof s.tenantId === 'string' ? (s as Session) : null;
  } catch {
    return null;
  }
}

export function signIn(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
  for (const l of listeners) l(session);
}

/** `reason` is shown on the sign-in screen (e.g. the key was rotated). */
export function signOut(reason?: string): void {
  sessionStorage.removeItem(KEY);
  for (const l of listeners) l(null, reason);
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
