import http from 'node:http';
import https from 'node:https';

export interface HttpAnswer {
  status: number;
  /** The body (UTF-8), cut at `maxBytes`. */
  body: string;
}

export interface HttpCallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange, connection included. */
  timeoutMs: number;
  /** Read at most this much of the answer (the rest is dropped). */
  maxBytes: number;
  agents?: { http: http.Agent; https: https.Agent };
}

/** Why a call to another system gave no answer (a timeout, a refused or reset connection, a refused address). */
export class NoAnswer extends Error {}

/**
 * One HTTP exchange with another system on the player's behalf (a platform's API, a partner's
 * endpoint), bounded in time and size; redirects are not followed. Rejects with NoAnswer when
 * there is no answer in time.
 */
export function httpCall(url: string, options: HttpCallOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new NoAnswer('invalid URL'));
    }
    const secure = target.protocol === 'https:';
    const body = options.body;
    const req = (secure ? https : http).request(target, {
      method: options.method ?? 'GET',
      agent: options.agents ? (secure ? options.agents.https : options.agents.http) : undefined,
      headers: {
        'user-agent': 'cgs-quests/1',
        ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        ...options.headers,
      },
    });
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new NoAnswer(why));
    };
    const timer = setTimeout(() => fail(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => fail(e.message || e.code || 'request failed'));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      };
      res.on('data', (chunk: Buffer) => {
        if (read >= options.maxBytes) return;
        const room = options.maxBytes - read;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        read += Math.min(chunk.length, room);
        if (read >= options.maxBytes) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', () => finish());
    });
    req.end(body);
  });
}

/** The JSON of an answer's body, or undefined when it is not JSON. */
export function jsonOf(answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}
