import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { NOTIFICATION_BUS_LINGER_MS, NotificationBus, type NotificationTransport, WAKE_ATTEMPTS } from './notification-bus.js';

/** The bus over a transport the test fails and heals. */
class TestBus extends NotificationBus {
  failing = true;
  attempts = 0;
  readonly sent: string[][] = [];

  constructor() {
    super('postgres://unused', { REDIS_URL: undefined } as AppConfig);
  }

  protected override openTransport(): NotificationTransport {
    return {
      ready: () => Promise.resolve(),
      publish: (payload) => {
        this.attempts++;
        if (this.failing) return Promise.reject(new Error('connection lost'));
        this.sent.push((JSON.parse(payload) as { users: string[] }).users);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
  }
}

describe('NotificationBus sending', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('waits NOTIFICATION_BUS_LINGER_MS for the wake-ups of concurrent writes, and sends them in one message', async () => {
    const bus = new TestBus();
    bus.failing = false;
    bus.publish('t:a');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS - 1);
    bus.publish('t:b');
    expect(bus.attempts).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(bus.sent).toEqual([['t:a', 't:b']]);
    bus.publish('t:c');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS);
    expect(bus.sent).toEqual([['t:a', 't:b'], ['t:c']]);
  });

  it('sends a wake-up that failed again after a backoff', async () => {
    const bus = new TestBus();
    bus.publish('t:a');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS);
    expect(bus.attempts).toBe(1);
    bus.failing = false;
    await jest.advanceTimersByTimeAsync(249);
    expect(bus.attempts).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(bus.sent).toEqual([['t:a']]);
  });

  it(`gives up after ${WAKE_ATTEMPTS} attempts, and sends the next wake-ups as usual`, async () => {
    const bus = new TestBus();
    bus.publish('t:a');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(bus.attempts).toBe(WAKE_ATTEMPTS);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(bus.attempts).toBe(WAKE_ATTEMPTS);
    bus.failing = false;
    bus.publish('t:b');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS);
    expect(bus.sent).toEqual([['t:b']]);
  });

  it('sends a wake-up published while a retry waits with it, in one message', async () => {
    const bus = new TestBus();
    bus.publish('t:a');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS);
    expect(bus.attempts).toBe(1);
    bus.publish('t:b');
    bus.publish('t:a');
    bus.failing = false;
    await jest.advanceTimersByTimeAsync(250);
    expect(bus.sent).toEqual([['t:a', 't:b']]);
  });

  it('makes one last attempt at shutdown without waiting for the backoff', async () => {
    const bus = new TestBus();
    bus.publish('t:a');
    await jest.advanceTimersByTimeAsync(NOTIFICATION_BUS_LINGER_MS);
    expect(bus.attempts).toBe(1);
    bus.failing = false;
    await bus.onModuleDestroy();
    expect(bus.sent).toEqual([['t:a']]);
  });
});
