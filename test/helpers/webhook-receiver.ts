import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; version: number; tenantId: string; occurredAt: string; data: Record<string, unknown> };
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status to answer the next request with (default 200); `respond` may be replaced. */
  respond: (d: ReceivedDelivery) => number;
  /** How long to wait before answering (a slow receiver). */
  delayMs: number;
  /** Resolves once `predicate` holds over what was received (polling), or rejects after `ms`. */
  waitFor: (predicate: (received: ReceivedDelivery[]) => boolean, ms?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A local HTTP server that records every webhook delivery it gets (a game server's endpoint). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    respond: () => 200,
    delayMs: 0,
    waitFor: async (predicate, ms = 15_000) => {
      const deadline = Date.now() + ms;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${ms} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const d: ReceivedDelivery = { headers: req.headers, body, json: JSON.parse(body), receivedAt: Date.now() };
      received.push(d);
      const answer = () => res.writeHead(receiver.respond(d), { 'content-type': 'text/plain' }).end('ok');
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
