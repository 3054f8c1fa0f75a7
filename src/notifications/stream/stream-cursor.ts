/**
 * The live stream's resume cursor, sent as each event's SSE `id` and read back from `Last-Event-ID`.
 *
 * A notification row records the id of the transaction that wrote it (`xid`). A PostgreSQL
 * snapshot (`pg_current_snapshot()`, text `xmin:xmax:xip,...`) says exactly which transactions had
 * committed when it was taken, so "the rows visible now that were not visible in snapshot S" are
 * exactly the notifications committed since S, whatever order their transactions started, took
 * ids or committed in. A plain sequence number cannot do that: a transaction that took number 10
 * and commits after the one that took 11 would be skipped by a client resuming after 11.
 *
 * Forms:
 * - `S`: every notification visible in snapshot S was delivered.
 * - `S~P~k`: the first k notifications (in stream order) visible in S and not in P were delivered,
 *   then the connection may have dropped: the id of an event in the middle of a batch.
 */
export interface StreamCursor {
  /** Snapshot text. */
  snapshot: string;
  /** Set in the middle of a batch: the batch began at `from`, `delivered` of its rows were sent. */
  partial?: { from: string; delivered: number };
}

/** Longest id accepted (a snapshot lists the transactions in progress; hundreds of them fit). */
export const CURSOR_MAX_LENGTH = 8192;
const SNAPSHOT = /^(\d{1,19}):(\d{1,19}):(\d{1,19}(?:,\d{1,19})*)?$/;
const MAX_XID = 2n ** 63n - 1n;

/** Whether `text` is a well-formed snapshot: xmin ≤ xmax, in-progress ids ascending within [xmin, xmax). */
export function isSnapshot(text: string): boolean {
  const m = SNAPSHOT.exec(text);
  if (!m) return false;
  const xmin = BigInt(m[1]);
  const xmax = BigInt(m[2]);
  if (xmin < 1n || xmin > xmax || xmax > MAX_XID) return false;
  let last = xmin - 1n;
  for (const part of m[3] ? m[3].split(',') : []) {
    const xid = BigInt(part);
    if (xid <= last || xid >= xmax) return false;
    last = xid;
  }
  return true;
}

/** The cursor of a `Last-Event-ID`, or null when it is not one this service sends. */
export function parseCursor(id: string): StreamCursor | null {
  if (id.length === 0 || id.length > CURSOR_MAX_LENGTH) return null;
  const parts = id.split('~');
  if (parts.length === 1) return isSnapshot(parts[0]) ? { snapshot: parts[0] } : null;
  if (parts.length !== 3 || !/^[1-9]\d{0,5}$/.test(parts[2])) return null;
  const [snapshot, from, delivered] = parts;
  if (!isSnapshot(snapshot) || !isSnapshot(from)) return null;
  return { snapshot, partial: { from, delivered: Number(delivered) } };
}

export function formatCursor(cursor: StreamCursor): string {
  return cursor.partial ? `${cursor.snapshot}~${cursor.partial.from}~${cursor.partial.delivered}` : cursor.snapshot;
}
