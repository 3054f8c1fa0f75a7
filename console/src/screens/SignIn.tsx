import { useState } from 'react';
import { clientFor, ok } from '../api.ts';
import { formErrors } from '../errors.ts';
import { signIn } from '../session.ts';
import { raw } from '../ui.tsx';

/** The tenant's management API key, checked against `GET /v1/admin/tenant`, kept for this tab only. */
export function SignIn({ notice }: { notice?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div className="signin">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const apiKey = raw(new FormData(e.currentTarget), 'apiKey').trim();
          if (!apiKey) return setError('Paste the API key of your tenant.');
          setBusy(true);
          try {
            const tenant = await ok(clientFor(apiKey).GET('/v1/admin/tenant'));
            signIn({ apiKey, tenantId: tenant.id, tenantName: tenant.name || tenant.slug });
          } catch (err) {
            setError(formErrors(err).form);
          } finally {
            setBusy(false);
          }
        }}
      >
        <h1>Operator console</h1>
        <p className="muted">Sign in with your tenant&apos;s management API key. It stays in this browser tab only.</p>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <label className="field">
          <span>API key</span>
          <input name="apiKey" type="password" autoComplete="off" placeholder="cgs_key_…" autoFocus />
        </label>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
