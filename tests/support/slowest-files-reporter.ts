/**
 * Prints the slowest test files once the run ends, so a CI log, which keeps only its tail, says where the suite's
 * time went. Speed goals live in the benchmarks; this only points at what to look at.
 */
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

/** Wall time of one file: importing it, its hooks and its tests. */
function fileSeconds(module: TestModule): number {
  const { collectDuration, setupDuration, duration } = module.diagnostic();
  return (collectDuration + setupDuration + duration) / 1000;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const ranked = [...modules].sort((a, b) => fileSeconds(b) - fileSeconds(a)).slice(0, SHOWN);
    const total = modules.reduce((sum, module) => sum + fileSeconds(module), 0);
    const lines = ranked.map((module) => `  ${fileSeconds(module).toFixed(1).padStart(7)} s  ${module.project.name}  ${module.relativeModuleId}`);
    process.stdout.write(`\nslowest test files (${modules.length} files, ${total.toFixed(0)} s in all):\n${lines.join('\n')}\n`);
  }
}
