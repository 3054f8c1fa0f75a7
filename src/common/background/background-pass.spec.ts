import { BackgroundPass } from './background-pass.js';

describe('BackgroundPass', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  it('runs one pass at a time, and exactly one more for any number of kicks during a pass', async () => {
    let runs = 0;
    let release!: () => void;
    const pass = new BackgroundPass(
      () => {
        runs++;
        return new Promise<void>((r) => (release = r));
      },
      () => undefined,
    );
    pass.kick();
    pass.kick();
    pass.kick();
    expect(runs).toBe(1);
    release();
    await tick();
    expect(runs).toBe(2);
    release();
    await tick();
    expect(runs).toBe(2);
  });

  it('hands a failed pass to onError and keeps working', async () => {
    const errors: string[] = [];
    let fail = true;
    let runs = 0;
    const pass = new BackgroundPass(
      async () => {
        runs++;
        if (fail) throw new Error('boom');
      },
      (e) => errors.push(e.message),
    );
    pass.kick();
    await tick();
    fail = false;
    pass.kick();
    await tick();
    expect(errors).toEqual(['boom']);
    expect(runs).toBe(2);
  });

  it('waits for the running pass on stop, then ignores kicks', async () => {
    let runs = 0;
    let done = false;
    const pass = new BackgroundPass(
      async () => {
        runs++;
        await tick();
        done = true;
      },
      () => undefined,
    );
    pass.kick();
    await pass.stop();
    expect(done).toBe(true);
    expect(pass.stopped).toBe(true);
    pass.kick();
    await tick();
    expect(runs).toBe(1);
  });

  it('is idle only after the pass a kick during the last one asked for', async () => {
    const finished: number[] = [];
    let runs = 0;
    const pass = new BackgroundPass(
      async () => {
        const n = ++runs;
        await tick();
        finished.push(n);
      },
      () => undefined,
    );
    await pass.idle();
    pass.kick();
    pass.kick();
    await pass.idle();
    expect(finished).toEqual([1, 2]);
  });
});
