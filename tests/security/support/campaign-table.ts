/**
 * Vitest global setup: gives the campaign files a fresh results directory, and when the run ends prints one table
 * (case, tried, failed) over every campaign case that ran, in whichever files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { CAMPAIGN_RESULTS_KEY, campaignTable, readCampaignFigures } from './campaign-results.ts';

/** Vitest global setup hook; the returned function is its teardown. */
export default function setup(project: TestProject): () => void {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-security-campaign-'));
  project.provide(CAMPAIGN_RESULTS_KEY, directory);
  return () => {
    const figures = readCampaignFigures(directory);
    fs.rmSync(directory, { recursive: true, force: true });
    if (figures.length === 0) return;
    console.log(`\nSecurity campaign\n${campaignTable(figures)}\n`);
  };
}
