/**
 * What is generated from contract/: the meta-schema's challenge enum (schemas/flow.schema.json
 * `definitions.challengeKind`). `npm run contract:generate` writes it; flows:check reports drift with that command as the fix.
 */
import { CHALLENGE_KINDS } from '../../contract/challenges.ts';

/** The meta-schema, relative to the project root. */
export const META_SCHEMA_FILE = 'schemas/flow.schema.json';

/** The command that rewrites every generated file. */
export const GENERATE_COMMAND = 'npm run contract:generate';

const ENUM_BLOCK = /("challengeKind": \{\n)[\s\S]*?(\n {4}\},\n)/;
const ITEMS_PER_LINE = 6;

/** The `challengeKind` definition's body for `kinds`, in the file's layout (two spaces, six kinds a line). */
function challengeKindBody(kinds: readonly string[]): string {
  const lines: string[] = [];
  for (let index = 0; index < kinds.length; index += ITEMS_PER_LINE) {
    lines.push(`        ${kinds.slice(index, index + ITEMS_PER_LINE).map((kind) => JSON.stringify(kind)).join(', ')}`);
  }
  return [
    '      "$comment": "Generated from contract/challenges.ts by npm run contract:generate: edit the contract, not this list.",',
    '      "enum": [',
    lines.join(',\n'),
    '      ]',
  ].join('\n');
}

/** The meta-schema's text with its challenge enum generated from `kinds` (the contract's, by default). */
export function withGeneratedChallengeKinds(metaSchemaText: string, kinds: readonly string[] = CHALLENGE_KINDS): string {
  if (!ENUM_BLOCK.test(metaSchemaText)) throw new Error(`${META_SCHEMA_FILE} has no "challengeKind" definition to generate`);
  return metaSchemaText.replace(ENUM_BLOCK, (_whole, head: string, tail: string) => `${head}${challengeKindBody(kinds)}${tail}`);
}
