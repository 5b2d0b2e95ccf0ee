/**
 * The web build is made from the flows the server enforces: the compiled graph has a content hash, the build embeds it
 * (dist/web/flow-graph.json, from the same compile), and the server refuses to start on a build made from other flows,
 * naming the fix.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileFlows, flowsHash, WEB_BUILD_FLOWS_FILE } from '../../contract/flow-sources.ts';
import { webFlowGraph } from '../../scripts/vite/flow-graph-plugin.ts';
import { assertWebBuildMatches, StaleWebBuildError } from '../../server/web/web-build-flows.ts';
import { costCentreFlows } from './support/cost-centre-fixture.ts';

const PROJECT = path.resolve(import.meta.dirname, '../..');

/** A built web app (its page, and the flows hash its build wrote), in a folder of its own. */
function builtWebApp(hash: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  if (hash !== undefined) fs.writeFileSync(path.join(dir, WEB_BUILD_FLOWS_FILE), JSON.stringify({ hash }));
  return dir;
}

describe('the web build and the flows the server enforces', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('have one content hash, which any change to a flow, a word or a form schema changes', () => {
    const fixture = costCentreFlows();
    cleanups.push(fixture.remove);
    expect(compileFlows(PROJECT).hash).toMatch(/^[0-9a-f]{64}$/);
    expect(flowsHash(fixture.root)).not.toBe(flowsHash(PROJECT));
    const words = path.join(fixture.root, 'flows/messages/de.json');
    const before = flowsHash(fixture.root);
    fs.writeFileSync(words, fs.readFileSync(words, 'utf8').replace('}', ', "x.y": "z" }'));
    expect(flowsHash(fixture.root)).not.toBe(before);
  });

  it('the web build carries the same compiled graph the server reads: its hash and every guard', () => {
    const compiled = compileFlows(PROJECT);
    const web = webFlowGraph(compiled);
    expect(web.hash).toBe(compiled.hash);
    expect(web.guards['job-details']).toEqual(compiled.flows.find((flow) => flow.id === 'registration')!.steps['job-details']!.guard);
  });

  it('a build made from the same flows starts', () => {
    const web = builtWebApp(flowsHash(PROJECT));
    cleanups.push(() => fs.rmSync(web, { recursive: true }));
    expect(() => assertWebBuildMatches(web, flowsHash(PROJECT))).not.toThrow();
  });

  it('a build made from other flows (the cost-centre step added since) stops the server, naming npm run build', () => {
    const fixture = costCentreFlows();
    cleanups.push(fixture.remove);
    const web = builtWebApp(flowsHash(PROJECT));
    cleanups.push(() => fs.rmSync(web, { recursive: true }));
    expect(() => assertWebBuildMatches(web, flowsHash(fixture.root))).toThrow(StaleWebBuildError);
    expect(() => assertWebBuildMatches(web, flowsHash(fixture.root))).toThrow(/was built from other flows .*; fix: run npm run build/);
  });

  it('a build that names no flows, or no build at all, stops the server, naming npm run build', () => {
    const web = builtWebApp(undefined);
    cleanups.push(() => fs.rmSync(web, { recursive: true }));
    expect(() => assertWebBuildMatches(web, flowsHash(PROJECT))).toThrow(/does not say which flows it was built from .*; fix: run npm run build/);
    expect(() => assertWebBuildMatches(path.join(web, 'missing'), flowsHash(PROJECT))).toThrow(/the web app is not built .*; fix: run npm run build/);
  });
});
