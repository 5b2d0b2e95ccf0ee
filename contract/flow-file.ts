/**
 * The shape of a flow file (flows/*.json): every type, re-exported from the files of contract/flow-file/. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
export type * from './flow-file/values.ts';
export type * from './flow-file/form.ts';
export type * from './flow-file/moves.ts';
export type * from './flow-file/flow.ts';
