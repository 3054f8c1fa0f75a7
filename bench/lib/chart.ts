/**
 * The bench's picture: one horizontal bar per scenario, its req/s as a multiple of the bare route
 * of the same run (the bare route is the line at 1×), with the goal as a tick on the bar. Plain
 * SVG text, no library: it is a few rectangles and lines, viewable in any browser and on GitHub.
 */

export interface ChartRow {
  scenario: string;
  rps: number;
  /** req/s ÷ the bare route's req/s. */
  ratio: number | null;
  /** The goal as a multiple of the bare route (an absolute goal divided by the bare route's req/s), if any. */
  goalRatio: number | null;
  met: boolean | null;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(rows: ChartRow[], title: string): string {
  const shown = rows.filter((r) => r.ratio !== null && Number.isFinite(r.ratio));
  const label = 210;
  const width = 860;
  const plot = width - label - 90;
  const barH = 18;
  const gap = 8;
  const top = 48;
  const max = Math.max(1.1, ...shown.map((r) => r.ratio!), ...shown.map((r) => r.goalRatio ?? 0)) * 1.05;
  const x = (v: number) => label + (plot * v) / max;
  const height = top + shown.length * (barH + gap) + 40;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${label}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="${label}" y="36" fill="#555">req/s as a multiple of the bare route (line at 1×); tick: the goal; green: met, red: not met, grey: reference</text>`,
  ];
  for (let t = 0; t <= max; t += max > 3 ? 1 : 0.25) {
    out.push(
      `<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${height - 30}" stroke="#eee"/>`,
      `<text x="${x(t)}" y="${height - 14}" text-anchor="middle" fill="#777">${t.toFixed(2).replace(/\.?0+$/, '')}×</text>`,
    );
  }
  shown.forEach((r, i) => {
    const y = top + i * (barH + gap);
    const colour = r.met === null ? '#9e9e9e' : r.met ? '#2e7d32' : '#c62828';
    out.push(
      `<text x="${label - 8}" y="${y + barH - 5}" text-anchor="end">${esc(r.scenario)}</text>`,
      `<rect x="${label}" y="${y}" width="${Math.max(1, x(r.ratio!) - label)}" height="${barH}" fill="${colour}" opacity="0.85"/>`,
      `<text x="${x(r.ratio!) + 4}" y="${y + barH - 5}" fill="#333">${r.ratio!.toFixed(2)}× (${Math.round(r.rps).toLocaleString('en')}/s)</text>`,
    );
    if (r.goalRatio !== null && Number.isFinite(r.goalRatio))
      out.push(`<line x1="${x(r.goalRatio)}" y1="${y - 3}" x2="${x(r.goalRatio)}" y2="${y + barH + 3}" stroke="#000" stroke-width="2"/>`);
  });
  out.push(`<line x1="${x(1)}" y1="${top - 6}" x2="${x(1)}" y2="${height - 30}" stroke="#1565c0" stroke-dasharray="4 3"/>`, '</svg>');
  return `${out.join('\n')}\n`;
}

/** The goal of a row as a multiple of the bare route: "≥ 0.4× ..." or "≥ 500 purchases/s ..." (÷ bare req/s). */
export function goalRatioOf(goal: string, bareRps: number): number | null {
  const ratio = /≥\s*([\d.]+)×/.exec(goal);
  if (ratio) return Number(ratio[1]);
  const absolute = /≥\s*([\d,]+)\s*[a-z]+\/s/.exec(goal);
  return absolute ? Number(absolute[1].replace(/,/g, '')) / bareRps : null;
}
