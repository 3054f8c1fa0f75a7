import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { Empty, Loading, Pager, usePaged, when } from '../ui.tsx';

type Submission = Schemas['SubmissionDto'];
const isLink = (s: string) => /^https?:\/\//.test(s);

/** The review queue: players' submissions to quest tasks, oldest first; approve, or reject with a reason the player reads. */
export function Reviews() {
  const [state, setState] = useState<'pending' | 'done' | 'rejected'>('pending');
  const [message, setMessage] = useState<string | null>(null);
  const queue = usePaged(
    (page) => ok(api().GET('/v1/admin/quest-submissions', { params: { query: { state, page, limit: 20 } } })),
    [state],
  );
  const decide = async (s: Submission, approve: boolean) => {
    let reason: string | undefined;
    if (!approve) {
      const typed = window.prompt(`Why is ${s.handle}'s submission rejected? They will read this.`);
      if (!typed?.trim()) return;
      reason = typed.trim();
    }
    try {
      const r = await ok(
        api().POST('/v1/admin/quest-submissions/{submissionId}/review', {
          params: { path: { submissionId: s.id } },
          body: { approve, reason },
        }),
      );
      setMessage(
        approve
          ? `Approved ${s.handle}'s submission${r.questCompleted ? ': the quest is completed and its rewards credited' : ''}.`
          : `Rejected ${s.handle}'s submission; they were told why.`,
      );
    } catch (err) {
      setMessage(err instanceof Error ? err.message : String(err));
    }
    queue.reload();
  };
  return (
    <section>
      <h1>Reviews</h1>
      <div className="toolbar">
        <select value={state} onChange={(e) => setState(e.target.value as typeof state)} aria-label="state">
          <option value="pending">Waiting for review</option>
          <option value="done">Approved</option>
          <option value="rejected">Rejected</option>
        </select>
      </div>
      {message ? (
        <p className="ok" role="status">
          {message}
        </p>
      ) : null}
      <Loading loading={queue.loading && !queue.data} error={queue.error} />
      {queue.data && queue.data.items.length === 0 ? <Empty>Nothing here.</Empty> : null}
      {queue.data && queue.data.items.length > 0 ? (
        <table aria-label="submissions">
          <thead>
            <tr>
              <th>Player</th>
              <th>Quest</th>
              <th>Task</th>
              <th>Submission</th>
              <th>Submitted</th>
              <th>{state === 'pending' ? '' : 'Decision'}</th>
            </tr>
          </thead>
          <tbody>
            {queue.data.items.map((s) => (
              <tr key={s.id}>
                <td>{s.handle}</td>
                <td>{s.questName}</td>
                <td>{s.taskTitle}</td>
                <td>
                  {isLink(s.content) ? (
                    <a href={s.content} target="_blank" rel="noopener noreferrer nofollow">
                      {s.content}
                    </a>
                  ) : (
                    s.content
                  )}
                </td>
                <td>{when(s.submittedAt)}</td>
                <td>
                  {state === 'pending' ? (
                    <>
                      <button type="button" onClick={() => void decide(s, true)}>
                        Approve
                      </button>{' '}
                      <button type="button" className="link" onClick={() => void decide(s, false)}>
                        Reject
                      </button>
                    </>
                  ) : (
                    <span className="muted">
                      {s.reviewReason ?? ''} {s.reviewedAt ? `(${when(s.reviewedAt)})` : ''}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager data={queue.data} page={queue.page} setPage={queue.setPage} />
    </section>
  );
}
