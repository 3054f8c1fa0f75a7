import { sessionUserGone } from './session-user-gone.js';

const userId = '3b241101-e2bb-4255-8caf-4136c566a962';
const fk = (column: string, id: string, table = 'users') => ({
  code: '23503',
  detail: `Key (${column})=(${id}) is not present in table "${table}".`,
});

describe('sessionUserGone (a write of a user deleted under a valid session)', () => {
  it('is a 401 session_ended (message GENERIC_UNAUTHORIZED) when the missing key is the session user, whatever the column', () => {
    for (const column of ['user_id', 'referred_id']) {
      expect(sessionUserGone(fk(column, userId), userId)?.definition).toMatchObject({
        status: 401,
        message: 'GENERIC_UNAUTHORIZED',
        error: 'session_ended',
      });
    }
    // TypeORM wraps the driver error
    expect(sessionUserGone({ driverError: fk('user_id', userId) }, userId)?.definition.status).toBe(401);
  });

  it('leaves every other error alone', () => {
    expect(sessionUserGone(fk('user_id', '00000000-0000-4000-8000-000000000000'), userId)).toBeUndefined();
    expect(sessionUserGone(fk('community_id', userId, 'communities'), userId)).toBeUndefined();
    expect(sessionUserGone({ code: '23505', detail: `Key (user_id)=(${userId}) already exists.` }, userId)).toBeUndefined();
    expect(sessionUserGone(fk('user_id', userId), undefined)).toBeUndefined();
    expect(sessionUserGone(new Error('boom'), userId)).toBeUndefined();
  });
});
