import { prettyLogs } from './logging.module.js';

describe('log format', () => {
  it('is readable (pino-pretty) only at a terminal outside production, JSON otherwise', () => {
    expect(prettyLogs({ NODE_ENV: 'development' }, { isTTY: true })).toBe(true);
    expect(prettyLogs({ NODE_ENV: 'test' }, { isTTY: true })).toBe(true);
    expect(prettyLogs({ NODE_ENV: 'production' }, { isTTY: true })).toBe(false);
    expect(prettyLogs({ NODE_ENV: 'development' }, { isTTY: false })).toBe(false);
    expect(prettyLogs({ NODE_ENV: 'development' }, {})).toBe(false);
  });
});
