/**
 * The bundled list of common and breached passwords that the server refuses (server/auth/password-policy.ts reads
 * the same @zxcvbn-ts list), so the live checklist never calls a password strong that the server will refuse. About
 * 200 KiB, so it is fetched only when a new-password field shows, never with the login screen.
 */

let loading: Promise<ReadonlySet<string>> | undefined;

/** The list, lower case, loaded once per page. */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map((entry) => String(entry).toLowerCase())));
  return loading;
}

/** Whether `password` is on the list, ignoring case, as the server compares. */
export function isCommonPassword(list: ReadonlySet<string>, password: string): boolean {
  return list.has(password.toLowerCase());
}
