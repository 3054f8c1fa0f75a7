import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

/**
 * `/metrics` under `WEB_CONCURRENCY > 1`. The primary holds the port and hands each connection to a
 * worker, so a scrape reaches one worker at random: alone it would report its own share. The worker
 * asks the primary instead (SCRAPE), the primary collects every worker's registry with prom-client's
 * AggregatorRegistry (its own IPC request to each worker; counters and histograms are summed,
 * gauges as each metric declares) and sends the text back (SCRAPED).
 */
const SCRAPE = 'cgs:metrics:scrape';
const SCRAPED = 'cgs:metrics:scraped';
/** Longer than AggregatorRegistry's own wait for the workers (5 s), so its error is the one reported. */
const REPLY_TIMEOUT_MS = 8000;

interface ScrapeMessage {
  type: typeof SCRAPE;
  id: number;
}
interface ScrapedMessage {
  type: typeof SCRAPED;
  id: number;
  text?: string;
  error?: string;
}

/**
 * In a cluster worker, first thing at start: prom-client answers the primary's collections from
 * here on (with an empty registry until `Metrics` hands it its own), so a worker that is still
 * starting does not leave the primary waiting until its 5 s limit fails the whole scrape.
 */
export function answerClusterCollections(): void {
  new AggregatorRegistry(); // installs prom-client's worker listener (idempotent)
}

/** In the cluster primary: answers the workers' scrapes with the whole cluster's figures. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<ScrapeMessage> | null) => {
    if (message?.type !== SCRAPE || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (m: Omit<ScrapedMessage, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id, ...m } satisfies ScrapedMessage);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

const pending = new Map<number, { done: (text: string) => void; fail: (err: Error) => void; timer: NodeJS.Timeout }>();
let sequence = 0;

function onReply(message: Partial<ScrapedMessage> | null): void {
  if (message?.type !== SCRAPED || typeof message.id !== 'number') return;
  const waiting = pending.get(message.id);
  if (!waiting) return;
  settle(message.id);
  if (typeof message.text === 'string') waiting.done(message.text);
  else waiting.fail(new Error(`the cluster primary could not collect the metrics: ${message.error ?? 'no answer'}`));
}

function settle(id: number): void {
  clearTimeout(pending.get(id)?.timer);
  pending.delete(id);
  // Listen only while a scrape waits: a 'message' listener keeps the IPC channel referenced.
  if (pending.size === 0) process.off('message', onReply);
}

/** In a cluster worker: the whole cluster's figures, from the primary. */
export function scrapeThroughPrimary(): Promise<string> {
  return new Promise((done, fail) => {
    const id = ++sequence;
    if (pending.size === 0) process.on('message', onReply);
    const timer = setTimeout(() => {
      settle(id);
      fail(new Error(`the cluster primary did not answer a metrics scrape within ${REPLY_TIMEOUT_MS} ms`));
    }, REPLY_TIMEOUT_MS);
    pending.set(id, { done, fail, timer });
    process.send!({ type: SCRAPE, id } satisfies ScrapeMessage, undefined, {}, (err: Error | null) => {
      if (!err) return;
      settle(id);
      fail(err);
    });
  });
}
