/** What a page address must carry to belong to a client app's sign-in; without it, the address is the account page's. */

/**
 * Whether an address's query names a client app, resumes a sign-in, or carries an invitation (whose link names no
 * client: the login step asks the server for the invitation's app): only then is it a client's sign-in.
 */
export function namesClientApp(query: URLSearchParams): boolean {
  return query.has('client_id') || query.has('interaction') || query.has('invitation');
}
