import { primaryLocatorFor, splitHosts } from './primary-locator.js';

describe('splitHosts (a multi-host DATABASE_URL)', () => {
  it("reads libpq's host list, each host's URL without target_session_attrs", () => {
    const { hosts, urlFor } = splitHosts(
      'postgres://app:s3cret@10.0.0.1:5432,db2:6432,[::1]/cgs?target_session_attrs=read-write&sslmode=disable',
    );
    expect(hosts).toEqual([
      { host: '10.0.0.1', port: 5432 },
      { host: 'db2', port: 6432 },
      { host: '::1', port: 5432 },
    ]);
    expect(hosts.map(urlFor)).toEqual([
      'postgres://app:s3cret@10.0.0.1:5432/cgs?sslmode=disable',
      'postgres://app:s3cret@db2:6432/cgs?sslmode=disable',
      'postgres://app:s3cret@[::1]:5432/cgs?sslmode=disable',
    ]);
    expect(urlFor(hosts[0])).not.toContain('target_session_attrs');
    expect(splitHosts('postgres://a@h1,h2/db?target_session_attrs=any').urlFor({ host: 'h2', port: 5432 })).toBe('postgres://a@h2:5432/db');
  });

  it('leaves a one-host URL to node-postgres: no locator', () => {
    expect(splitHosts('postgresql://u@localhost:5432/db').hosts).toEqual([{ host: 'localhost', port: 5432 }]);
    expect(primaryLocatorFor('postgres://u@localhost:5432/db')).toBeNull();
    const a = primaryLocatorFor('postgres://u@h1:1,h2:2/db');
    expect(a).not.toBeNull();
    expect(primaryLocatorFor('postgres://u@h1:1,h2:2/db')).toBe(a);
  });
});
