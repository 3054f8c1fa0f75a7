import { randomBytes } from 'node:crypto';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** A METRICS_TOKEN made for the run (a token written in the repository would be a published one). */
export const METRICS_TOKEN = randomBytes(32).toString('hex');

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
  sum?: string;
  buckets?: Record<string, string>;
}
interface Family {
  name: string;
  type: string;
  help: string;
  metrics: Sample[];
}

const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);

/** One scrape of `/metrics`, parsed (Prometheus text format). */
export class Scrape {
  readonly families: Family[];

  constructor(readonly text: string) {
    this.families = parsePrometheusTextFormat(text) as Family[];
  }

  private family(name: string): Family | undefined {
    return this.families.find((f) => f.name === name);
  }

  /** Sum of the counter or gauge samples of `name` whose labels include `labels` (0 when none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return (this.family(name)?.metrics ?? []).filter((s) => matches(s, labels)).reduce((n, s) => n + Number(s.value), 0);
  }

  /** Sum of the observation counts of histogram `name` over the series whose labels include `labels`. */
  count(name: string, labels: Record<string, string> = {}): number {
    return (this.family(name)?.metrics ?? []).filter((s) => matches(s, labels)).reduce((n, s) => n + Number(s.count), 0);
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
