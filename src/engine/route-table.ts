/**
 * The app's addresses as data (flows/shell/routes.json): each route with its document title, the
 * legacy paths under the old /auth prefix that redirect to them, and where the roots lead.
 */
import table from '../../flows/shell/routes.json';

/** An address the app answers, with the title the document takes there. */
export interface AppRoute {
  /** Below the base path, in step route syntax ("change-password/:delivery_destination"). */
  path: string;
  title: string;
}

/** An address that sends the browser on to `to`, with the title it carries meanwhile. */
export interface RouteRedirect {
  title: string;
  /** The target route's path; its `:name` segments take the values of the same names. */
  to: string;
}

/** An old address, below the legacy prefix. */
export interface LegacyRoute extends RouteRedirect {
  path: string;
}

/** The whole route table. */
export interface RouteTable {
  root: RouteRedirect;
  /** The prefix the old app's routes lived under ("auth", so /auth/auth/sign-up). */
  legacyPrefix: string;
  legacyRoot: RouteRedirect;
  /** The title of the error page any other address shows. */
  unknownTitle: string;
  routes: readonly AppRoute[];
  legacy: readonly LegacyRoute[];
}

/** The route table shipped with the app. */
export const routeTable: RouteTable = table;
