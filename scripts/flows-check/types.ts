/**
 * The data every flows:check check reads, and the problem each one reports. Checks are pure:
 * a `Project` in, `Problem`s out, so tests feed them broken data without touching the disk.
 */
import type { ErrorCodeDefinition } from '../../contract/error-codes.ts';
import type { ApiRoute } from '../../server/api/step-api.ts';
import type { FlowDefinition } from '../../contract/flow-file.ts';
import type { RouteTable } from '../../src/engine/route-table.ts';

/** One thing wrong, printed as `file:path — message — fix`. */
export interface Problem {
  /** The file at fault, relative to the project root (`flows/login.json`). */
  file: string;
  /** Where in it: a JSON path (`steps.login.next[0].go`), a catalogue key, or a line number. */
  path: string;
  /** What is wrong. */
  message: string;
  /** How to fix it. */
  fix: string;
}

/** A message catalogue: key -> text. */
export type Catalogue = Readonly<Record<string, string>>;

/** A flow file as read, before the meta-schema has vouched for its shape. */
export interface RawFlow {
  file: string;
  data: unknown;
  /** Set when the file is not JSON at all. */
  syntaxError?: { line: number; message: string };
}

/** A flow file that validates against the meta-schema. */
export interface FlowFile {
  file: string;
  flow: FlowDefinition;
}

/** A form schema of schemas/forms/, as far as the checks read it. */
export interface FormSchema {
  /** Shown to users by the form renderer under the form's title, so a form schema must not have one. */
  description?: string;
  properties?: Readonly<Record<string, { title?: string }>>;
}

/** A message key named literally somewhere outside the flows (src/ code, the password policy). */
export interface KeyReference {
  file: string;
  /** A line number or a JSON path. */
  path: string;
  key: string;
}

/** A step the app itself refers to by id (src/config.ts). */
export interface AppStep {
  /** The config key (`entryStep`). */
  name: string;
  step: string;
}

/** Everything the checks look at, loaded once. */
export interface Project {
  flows: readonly FlowFile[];
  /** schemas/forms/ file name -> schema. */
  formSchemas: ReadonlyMap<string, FormSchema>;
  /** language -> catalogue; `en` is the source the others follow. */
  catalogues: ReadonlyMap<string, Catalogue>;
  /** Where each English key lives: the main catalogue, or a flow's word set (loaded only with that flow). */
  wordPlaces?: { main: ReadonlySet<string>; sets: ReadonlyMap<string, ReadonlySet<string>> };
  /** Every challenge kind the contract lists (contract/challenges.ts), in order. */
  contractChallenges: readonly string[];
  /** Every challenge kind the server can send (those contract/challenges.ts marks `sentByServer`). */
  serverChallenges: readonly string[];
  /** The meta-schema's pattern for message keys. */
  messageKeyPattern: RegExp;
  /** Every challenge kind the meta-schema knows (generated from the contract). */
  challengeKinds: readonly string[];
  /** API error code -> its status and parameters (contract/error-codes.ts). */
  apiErrors: Readonly<Record<string, ErrorCodeDefinition>>;
  /** Feature flags `flag` conditions may name (contract/product.ts). */
  featureFlags: readonly string[];
  /** Query values src/config.ts keeps from step to step (init calls' query values are kept too). */
  carriedQuery: readonly string[];
  appSteps: readonly AppStep[];
  /** Message keys named literally outside the flows. */
  keyReferences: readonly KeyReference[];
  /** The route table (flows/shell/routes.json), when the project has one. */
  routeTable?: RouteTable;
  /** Analytics event name -> the flow it belongs to (flows/shell/events.json). */
  eventCatalogue: ReadonlyMap<string, string>;
  /** The step API's routes (server/api/step-api.ts), when read: flows:check reads them; a test's project may not. */
  apiRoutes?: readonly ApiRoute[];
  /**
   * The flow file's types (contract/flow-file.ts and contract/flow-file/), project-relative path -> text: as committed
   * and as the meta-schema generates them, when read: flows:check reads them for a project that has a contract/ folder.
   */
  flowTypes?: { committed: ReadonlyMap<string, string>; generated: ReadonlyMap<string, string> };
}

/** One row of the check table: a stable name, what it guards, and the check. */
export interface FlowCheck {
  name: string;
  guards: string;
  run(project: Project): Problem[];
}
