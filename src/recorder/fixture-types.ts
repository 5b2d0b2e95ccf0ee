/**
 * Types for flow fixtures (tests/fixtures/flows/<flow>/<case>.json), mirroring
 * schemas/fixture.schema.json. A fixture is one walk through a flow: where it starts, each screen
 * reached, what was entered there, what the user did, and every API exchange on the way. Secrets
 * appear only as placeholders such as `{{password}}`.
 */

/** A path under the app with its query, e.g. the walk's start. */
export interface FixtureLocation {
  path: string;
  query: Record<string, string>;
}

/** What ended a step: the user's action, or the app moving on by itself. */
export type FixtureAction =
  /** The form's submit button, by its label. */
  | { type: 'submit'; label: string }
  /** Another button of the step (one of its actions, which makes a call of its own), by its label. */
  | { type: 'button'; label: string }
  /** A link, by its text. */
  | { type: 'link'; label: string }
  /** The app showed the next screen without the user (an entry call answered). */
  | { type: 'auto' }
  /** The app handed the browser to another site (the OIDC provider, the client app). */
  | { type: 'leave' }
  /** The page was reloaded. */
  | { type: 'reload' };

/** One API request and its answer, paths relative to /api/sso/v3/. */
export interface FixtureExchange {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Status 0: no response arrived (a network failure). */
  response: { status: number; body?: unknown };
}

/** One screen of the walk, as the user met it. */
export interface FixtureStep {
  /**
   * Where the browser landed when it came back into the app (after `leave` or `reload`); on the first step, where the
   * server forwarded the start link before the app loaded (a client's link goes straight into the provider).
   */
  arrive?: FixtureLocation;
  /** True when the step goes on on the previous step's screen (e.g. a retry after an error). */
  sameScreen?: boolean;
  /** The step's route, as written in flows/*.json. */
  route: string;
  title: string;
  /** Alerts and field messages on show when the step ended (recorded for acted and final steps). */
  messages: string[];
  /** The headline on show when the step ended (recorded, like `messages`, for acted and final steps). */
  headline?: string;
  /** Field name -> what the user typed (fields left as prefilled are not listed). */
  inputs?: Record<string, string>;
  /** Absent on the last step: the walk ends there. */
  action?: FixtureAction;
  /** API exchanges from the step's appearance (or its action) until the next step. */
  requests: FixtureExchange[];
}

/** Who the live-server replay creates before the walk (admin CLI, with {{email}} and {{password}}). */
export interface FixtureUser {
  /** A temporary password, to be replaced at the first sign-in. */
  temporary?: boolean;
  /** An operator-forced password reset (`user require-reset`). */
  requireReset?: boolean;
  /** Invited to this company instead (`sso invite`): the mail's link carries the {{invitation}} token. */
  invitedTo?: string;
  /** Added to these companies (made if missing): {{company1}}, {{company2}}, … are their ids, in this order. */
  companies?: string[];
}

/** A client app the live replay registers before the walk (`sso client add`): not first-party, so it asks for consent. */
export interface FixtureClient {
  id: string;
  /** As the consent screen names it. */
  name: string;
  /** The redirect URI's path on the demo's origin ({{demo}}). */
  redirectPath: string;
  /** No secret, PKCE only. */
  public?: boolean;
}

/** A whole fixture file. */
export interface Fixture {
  $schema?: string;
  description: string;
  start: FixtureLocation;
  user?: FixtureUser;
  client?: FixtureClient;
  /** Where {{code}} and {{wrongCode}} come from in a live replay: the development outbox. */
  codes?: 'outbox';
  /** Feature flags the live server runs with (the rest keep their defaults): the company picker needs one off. */
  flags?: Record<string, boolean>;
  /** False for walks a live server cannot reproduce (an expired code needs the clock moved). */
  realServer?: boolean;
  /** False for walks the engine replay cannot reproduce (a passkey ceremony needs a browser's authenticator). */
  engine?: boolean;
  /** Why `realServer` or `engine` is false. */
  reason?: string;
  /** Where the browser ended up after the app handed it on (the client app's callback). */
  end?: FixtureEnd;
  steps: FixtureStep[];
}

/**
 * Where the browser ended up after the app handed it on: the client app's callback, and whether the provider's
 * answer there was an authorization code (`code=`) or an error (`error=`, e.g. access_denied after "Don't allow").
 */
export interface FixtureEnd {
  path: string;
  answer?: 'code' | 'error';
}
