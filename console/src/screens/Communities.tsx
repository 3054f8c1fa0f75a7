import { Link, useNavigate } from 'react-router';
import { api, ok } from '../api.ts';
import { Field, FormFooter, Loading, Pager, text, usePaged, useSubmit } from '../ui.tsx';

export function Communities() {
  const list = usePaged((page) => ok(api().GET('/v1/admin/communities', { params: { query: { page, limit: 20 } } })), []);
  return (
    <section>
      <h1>Communities</h1>
      <Loading loading={list.loading} error={list.error} />
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Slug</th>
            <th className="num">Members</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((c) => (
            <tr key={c.id}>
              <td>
                <Link to={`/communities/${c.slug}`}>{c.name}</Link>
              </td>
              <td>
                <code>{c.slug}</code>
              </td>
              <td className="num">{c.memberCount}</td>
              <td>{new Date(c.createdAt).toLocaleDateString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      <CreateCommunity />
    </section>
  );
}

function CreateCommunity() {
  const navigate = useNavigate();
  const f = useSubmit(
    async (d) => {
      const c = await ok(
        api().POST('/v1/admin/communities', {
          body: { slug: text(d, 'slug') ?? '', name: text(d, 'name') ?? '', description: text(d, 'description') },
        }),
      );
      void navigate(`/communities/${c.slug}`);
    },
    ['slug', 'name', 'description'],
  );
  return (
    <details className="panel">
      <summary>New community</summary>
      <form onSubmit={f.onSubmit}>
        <Field label="Name" name="name" error={f.errors.fields.name}>
          <input name="name" />
        </Field>
        <Field label="Slug" name="slug" error={f.errors.fields.slug} hint="Lower-case letters, digits and dashes; used in URLs.">
          <input name="slug" />
        </Field>
        <Field label="Description" name="description" error={f.errors.fields.description}>
          <textarea name="description" rows={2} />
        </Field>
        <FormFooter {...f} label="Create community" />
      </form>
    </details>
  );
}
