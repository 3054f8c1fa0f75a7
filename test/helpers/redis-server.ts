import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { freePort } from './processes.js';

export interface RedisServer {
  port: number;
  url: string;
  /** Kills the server (SIGKILL: an outage, not a shutdown); its data is gone (no persistence). */
  kill: () => Promise<void>;
  /** Starts it again on the same port, empty. */
  start: () => Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered. */
  pause: () => void;
  /** Lets a frozen server go on (SIGCONT). */
  resume: () => void;
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
 * A `redis-server` of the test's own on a free loopback port, without persistence, so a test can
 * kill it and start it again. The binary must be installed (apt-get install redis-server): a
 * Redis test never passes without Redis.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
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
      if (err) throw new Error(`cannot start redis-server (install it: apt-get install redis-server): ${err.message}`);
      if (await accepts(port)) return;
    }
    throw new Error(`redis-server did not listen on port ${port}`);
  };
  const kill = async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    pause: () => proc?.kill('SIGSTOP'),
    resume: () => proc?.kill('SIGCONT'),
    close: async () => {
      proc?.kill('SIGCONT');
      await kill();
    },
  };
}

export interface TcpProxy {
  port: number;
  url: string;
  /** A network partition: open connections are cut and new ones refused (the server keeps running). */
  cut: () => void;
  heal: () => void;
  close: () => Promise<void>;
}

/** A loopback TCP proxy to `targetPort`, so a test can cut one client off a server that keeps its data. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    heal: () => {
      open = true;
    },
    close: async () => {
      open = false;
      for (const s of sockets) s.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
