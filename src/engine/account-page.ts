/**
 * Steps that start a client app's sign-in (`withoutClient`), entered with no client app named: the address belongs to
 * the product's own account page, which signs in (or signs up) as a client of the provider like any other.
 */
import { namesClientApp } from '../../contract/client-query.ts';
import { ACCOUNT_PAGE } from '../../contract/product.ts';
import type { Step } from './flow-types.ts';

/** The account page's address that `step`, entered with `query`, hands over to; undefined when a client app is named. */
export function accountPageAddress(step: Pick<Step, 'withoutClient'>, query: URLSearchParams): string | undefined {
  const rule = step.withoutClient;
  if (!rule || namesClientApp(query)) return undefined;
  const sent = new URLSearchParams(rule.query);
  for (const name of rule.carry ?? []) {
    const value = query.get(name);
    if (value !== null) sent.set(name, value);
  }
  const text = sent.toString();
  return text ? `${ACCOUNT_PAGE.path}?${text}` : ACCOUNT_PAGE.path;
}
