/**
 * What a studio frame renders, read straight from the files as they are now (no checks, so it is quick): the step as
 * its flow file writes it, and one language's words (its catalogue and every flow's word set).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A step with its id and flow, and the words of one language. */
export interface FrameData {
  step: Record<string, unknown>;
  words: Record<string, string>;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** The step `stepId` and the words of `language` under `flowsRoot`, or undefined when no flow has the step or no catalogue the language. */
export function readFrameData(flowsRoot: string, stepId: string, language: string): FrameData | undefined {
  const flowsDir = join(flowsRoot, 'flows');
  const messagesDir = join(flowsDir, 'messages');
  const catalogue = join(messagesDir, `${language}.json`);
  if (!/^[a-z]{2}(-[A-Z]{2})?$/.test(language) || !existsSync(catalogue)) return undefined;
  for (const name of readdirSync(flowsDir).filter((file) => file.endsWith('.json')).sort()) {
    let flow: { id?: string; steps?: Record<string, Record<string, unknown>> };
    try {
      flow = readJson(join(flowsDir, name)) as typeof flow;
    } catch {
      continue;
    }
    const step = flow.steps?.[stepId];
    if (!step || typeof flow.id !== 'string') continue;
    const sets = readdirSync(messagesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(messagesDir, entry.name, `${language}.json`)))
      .map((entry) => readJson(join(messagesDir, entry.name, `${language}.json`)) as Record<string, string>);
    return { step: { ...step, id: stepId, flowId: flow.id }, words: Object.assign({}, ...sets, readJson(catalogue) as Record<string, string>) as Record<string, string> };
  }
  return undefined;
}
