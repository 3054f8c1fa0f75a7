import fc from 'fast-check';
import { earnedOfScore, memberOf, scoreOf, userOfMember } from './rank-member.js';

const uuid = fc.uuid();
const micros = fc.bigInt({ min: 0n, max: 16n ** 14n - 1n });
const earned = fc.bigInt({ min: 1n, max: BigInt(Number.MAX_SAFE_INTEGER) });

/** PostgreSQL's order of the rank index: earned DESC, earned_at ASC, user_id ASC (uuids bytewise). */
function pgOrder(a: { earned: bigint; at: bigint; user: string }, b: typeof a): number {
  if (a.earned !== b.earned) return a.earned > b.earned ? -1 : 1;
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  const [x, y] = [a.user.replaceAll('-', ''), b.user.replaceAll('-', '')];
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Redis's order of a sorted set: score ascending, then member bytewise ascending. */
function redisOrder(a: { score: number; member: string }, b: typeof a): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  const [x, y] = [Buffer.from(a.member), Buffer.from(b.member)];
  return Buffer.compare(x, y);
}

describe('rank members (the Redis encoding of the rank order)', () => {
  it('orders any two users as the PostgreSQL rank index does', () => {
    fc.assert(
      // The second user shares the first's amount, time, or both half of the time: ties are the case that matters.
      fc.property(
        fc
          .record({ earned, at: micros, user: uuid })
          .chain((a) =>
            fc.tuple(
              fc.constant(a),
              fc.record({ earned: fc.oneof(earned, fc.constant(a.earned)), at: fc.oneof(micros, fc.constant(a.at)), user: uuid }),
            ),
          ),
        ([a, b]) => {
          const enc = (r: typeof a) => ({
            score: Number(scoreOf(r.earned.toString())),
            member: memberOf({ userId: r.user, earned: r.earned.toString(), earnedAtMicros: r.at.toString() }),
          });
          expect(Math.sign(redisOrder(enc(a), enc(b)))).toBe(Math.sign(pgOrder(a, b)));
        },
      ),
    );
  });

  it('gives back the user id and the amount exactly', () => {
    fc.assert(
      fc.property(uuid, micros, earned, (user, at, e) => {
        const member = memberOf({ userId: user.toUpperCase(), earned: e.toString(), earnedAtMicros: at.toString() });
        expect(userOfMember(member)).toBe(user.toLowerCase());
        // Redis prints scores with up to 17 significant digits: integers below 2^53 come back whole.
        expect(earnedOfScore(String(Number(scoreOf(e.toString()))))).toBe(Number(e));
      }),
    );
  });

  it('refuses what it cannot encode in order', () => {
    expect(() => memberOf({ userId: 'not-a-uuid', earned: '1', earnedAtMicros: '0' })).toThrow();
    expect(() => memberOf({ userId: '3b241101-e2bb-4255-8caf-4136c566a962', earned: '1', earnedAtMicros: '-1' })).toThrow();
  });
});
