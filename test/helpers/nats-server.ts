import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';

export interface NatsServer {
  port: number;
  url: string;
  /** The server's connections (its monitoring endpoint): the open ones, or with closed ones too. */
  connections: (state?: 'open' | 'all') => Promise<{ cid: number; name?: string }[]>;
  /** Kills the server (SIGKILL: an outage); its JetStream store stays on disk. */
  kill: () => Promise<void>;
  /** Starts it again on the same port and store. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const c = connect(port, '127.0.0.1', () => {
      c.destroy();
      done(true);
    });
    c.once('error', () => done(false));
  });

/**
 * A `nats-server` with JetStream of the test's own on a free loopback port and a temporary store.
 * The binary must be installed (apt-get install nats-server): a NATS test never passes without NATS.
 */
export async function startNatsServer(): Promise<NatsServer> {
  const port = await freePort();
  const monitor = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'cgs-nats-'));
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    const p = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-m', String(monitor), '-sd', store], {
      stdio: 'ignore',
    });
    const failed = new Promise<Error>((resolve) => p.once('error', resolve));
    proc = p;
    running.add(p);
    exited = new Promise((done) =>
      p.once('exit', () => {
        running.delete(p);
        done();
      }),
    );
    for (let i = 0; i < 200; i++) {
      const err = await Promise.race([failed, new Promise<null>((r) => setTimeout(() => r(null), 25))]);
      if (err) throw new Error(`cannot start nats-server (install it: apt-get install nats-server): ${err.message}`);
      if (await accepts(port)) return;
    }
    throw new Error(`nats-server did not listen on port ${port}`);
  };
  const kill = async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `nats://127.0.0.1:${port}`,
    connections: async (state = 'open') => {
      const res = await fetch(`http://127.0.0.1:${monitor}/connz?state=${state}&limit=10000`);
      return ((await res.json()) as { connections: { cid: number; name?: string }[] | null }).connections ?? [];
    },
    kill,
    start,
    close: async () => {
      await kill();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
