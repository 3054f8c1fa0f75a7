/** The quest event lifecycle, drawn as the path it is: draft → … → completed, or cancelled. */
export const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  upcoming: 'Upcoming',
  registration_open: 'Registration open',
  active: 'Active',
  ended: 'Ended',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
const PATH = ['draft', 'upcoming', 'registration_open', 'active', 'ended', 'completed'];

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{STATUS_LABELS[status] ?? status}</span>;
}

export function Lifecycle({ status }: { status: string }) {
  const at = PATH.indexOf(status);
  return (
    <ol className="lifecycle" aria-label="lifecycle">
      {PATH.map((s, i) => (
        <li
          key={s}
          className={s === status ? 'current' : at >= 0 && i < at ? 'past' : status === 'cancelled' ? 'skipped' : 'future'}
          aria-current={s === status ? 'step' : undefined}
        >
          {STATUS_LABELS[s]}
        </li>
      ))}
      <li
        className={status === 'cancelled' ? 'current cancelled' : 'future off-path'}
        aria-current={status === 'cancelled' ? 'step' : undefined}
      >
        {STATUS_LABELS.cancelled}
      </li>
    </ol>
  );
}

/** ParticipantStatus (the interface's numbers), in words. */
export const PARTICIPANT_STATUS: Record<number, string> = { 1: 'registered', 2: 'unregistered', 3: 'dropped', 4: 'cancelled' };
