/** The configuration reference of docs/configuration.md, written from the server's table of environment variables. */
import type { EnvironmentVariable } from '../../server/environment-variables.ts';
import { tableCell } from './markdown.ts';

/** A markdown table: variable, default, meaning, in the table's order. */
export function configReference(variables: readonly EnvironmentVariable[]): string {
  const rows = variables.map((variable) => `| \`${variable.name}\` | ${tableCell(variable.default)} | ${tableCell(variable.meaning)} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
