import fs from 'node:fs';
import path from 'node:path';

/** The key under which the global setup hands the results directory to the campaign files. */
export const CAMPAIGN_RESULTS_KEY = 'securityCampaignResults';

declare module 'vitest' {
  export interface ProvidedContext {
    [CAMPAIGN_RESULTS_KEY]: string | undefined;
  }
}

/** One campaign case's figures, as a counter files them. */
export interface CampaignFigures {
  name: string;
  tried: number;
  failed: number;
  seconds: number;
}

/** Reads every case filed in `directory`, sorted by case. */
export function readCampaignFigures(directory: string): CampaignFigures[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as CampaignFigures)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The campaign table: one line per case (case, tried, failed), then the totals. */
export function campaignTable(figures: CampaignFigures[]): string {
  const rows = figures.map((entry) => [entry.name, String(entry.tried), String(entry.failed)]);
  const totals = ['total', String(figures.reduce((sum, entry) => sum + entry.tried, 0)), String(figures.reduce((sum, entry) => sum + entry.failed, 0))];
  const header = ['case', 'tried', 'failed'];
  const widths = header.map((title, column) => Math.max(title.length, ...[...rows, totals].map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line), line(totals)].join('\n');
}
