/**
 * Where the app reports an unexpected error (a screen that failed to render): to error reporting once it
 * has started, to the console until then or when it is off.
 */

type Reporter = (error: unknown) => void;

let reporter: Reporter = (error) => console.error(error);

/** Reports an unexpected error. */
export function reportError(error: unknown): void {
  reporter(error);
}

/** Installs the reporter error reporting provides. */
export function setErrorReporter(next: Reporter): void {
  reporter = next;
}
