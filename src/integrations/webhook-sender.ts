import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { AppConfig } from '../config/app-config.js';
import { guardedAgents } from './url-guard.js';

/** What one POST got: the status (null without an answer) and, without a 2xx, why. */
export interface SendOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs a delivery. Connections are kept alive per receiver (throughput); every connection goes
 * to an address checked at that moment against SSRF (`guardedAgents`), however the URL writes its
 * host. The
 * response body is read and dropped (at most 64 KiB is read); redirects are not followed (a 3xx
 * is a failed attempt: a redirect could point anywhere). The whole exchange, connection included,
 * is bounded by WEBHOOK_TIMEOUT_MS.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly config: AppConfig) {
    const agents = guardedAgents(config.WEBHOOK_ALLOW_PRIVATE_URLS, { keepAlive: true, maxSockets: 32 });
    this.httpAgent = agents.http;
    this.httpsAgent = agents.https;
  }

  onModuleDestroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const done = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ statusCode, error: error?.slice(0, 500) ?? null, durationMs: elapsed() });
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return done(null, 'invalid URL');
      }
      const isHttps = target.protocol === 'https:';
      const req = (isHttps ? https : http).request(target, {
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'cgs-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${this.config.WEBHOOK_TIMEOUT_MS} ms`));
      }, this.config.WEBHOOK_TIMEOUT_MS);
      req.on('response', (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 65536) res.destroy();
        });
        const status = res.statusCode ?? null;
        const finish = () => done(status, status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`);
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      req.on('error', (e: NodeJS.ErrnoException) => done(null, e.message || e.code || 'request failed'));
      req.end(body);
    });
  }
}
