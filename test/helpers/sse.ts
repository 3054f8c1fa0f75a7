import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './test-app.js';

export interface SseEvent {
  event: string;
  id: string;
  data: string;
}

/** The base URL of a test app's HTTP server, listening on a free loopback port (once). */
export async function listening(t: TestApp): Promise<string> {
  const server = t.app.getHttpServer() as http.Server;
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A test's reader of a Server-Sent Events response, over a plain HTTP request (headers the test
 * chooses, status and error body visible): parses the stream as the WHATWG event-stream rules say
 * (fields, comments, `id` kept across events like an EventSource's last event id).
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  lastEventId = '';
  ended = false;
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
  ) {}

  /** Opens `url`; resolves with the status and, when it is not 200, the JSON body. */
  static open(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body?: unknown; client?: SseClient }> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
          return;
        }
        const client = new SseClient(req, res);
        client.read();
        resolve({ status: 200, client });
      });
      req.on('error', reject);
    });
  }

  /** Opens `url` and fails unless it answers 200. */
  static async connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const r = await SseClient.open(url, headers);
    if (!r.client) throw new Error(`stream refused: ${r.status} ${JSON.stringify(r.body)}`);
    return r.client;
  }

  /** Waits for the first event (from index `from`) that `match` accepts. */
  async next(match: (e: SseEvent) => boolean = () => true, from = 0, timeoutMs = 5000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended; events: ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event in ${timeoutMs} ms; events: ${JSON.stringify(this.events)}`);
      await this.change(left);
    }
  }

  /** Waits until the server ends the response. */
  async end(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('the stream did not end');
      await this.change(left);
    }
  }

  /** Waits for anything to arrive (or `ms`). */
  change(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The notifications received (the `data` of `notification` events). */
  notifications<T = { id: string; title: string }>(): T[] {
    return this.events.filter((e) => e.event === 'notification').map((e) => JSON.parse(e.data) as T);
  }

  close(): void {
    this.req.destroy();
  }

  private read(): void {
    let buffer = '';
    let event = '';
    let data: string[] = [];
    this.res.setEncoding('utf8');
    this.res.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) this.events.push({ event: event || 'message', id: this.lastEventId, data: data.join('\n') });
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
      }
      this.wake();
    });
    const done = () => {
      this.ended = true;
      this.wake();
    };
    this.res.on('end', done);
    this.res.on('close', done);
    this.res.on('error', done);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
