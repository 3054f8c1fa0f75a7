import { randomBytes } from 'node:crypto';

/** A METRICS_TOKEN made for the run (a token written in the repository would be a published one). */
export const METRICS_TOKEN = randomBytes(32).toString('hex');

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

/**
 * One scrape of `/metrics` (Prometheus text format 0.0.4), read sample by sample. Not
 * parse-prometheus-text-format, the one parser on npm: it drops the labels, sums and counts of a
 * histogram whose `le` label comes first, as prom-client writes it (docs/decisions.md).
 */
export class Scrape {
  readonly samples: Sample[];

  constructor(readonly text: string) {
    this.samples = text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const m = SAMPLE.exec(line);
        if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
        const labels = Object.fromEntries([...(m[2] ?? '').matchAll(LABEL)].map(([, k, v]) => [k, unescape(v)]));
        return { name: m[1], labels, value: Number(m[3]) };
      });
  }

  /** Sum of the samples named `name` whose labels include `labels` (0 when none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((n, s) => n + s.value, 0);
  }

  /** Sum of the observation counts of histogram `name` over the series whose labels include `labels`. */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_count`, labels);
  }

  /**
   * Every series name a query may use: each declared family (from its `# TYPE` line, so a family with
   * no sample yet counts too), and a histogram's `_bucket`, `_sum`, `_count`, a summary's `_sum`, `_count`.
   */
  seriesNames(): Set<string> {
    const names = new Set<string>();
    for (const [, name, type] of this.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      names.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
    }
    return names;
  }
}
