/**
 * The single sign-on API client: every call goes through here, so the Accept header, the shared
 * loading flag and the shared error handling apply to all of them.
 */
import redaxios from 'redaxios';
import { config } from '../config.ts';
import { loadingFlag, type LoadingFlag } from './loading.ts';
import { t } from './messages.ts';

/** One API request, with a path relative to the API base. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  params?: Readonly<Record<string, string>>;
  body?: unknown;
  /** Abort after this many milliseconds (the client-info lookup's 3 s limit). */
  timeoutMs?: number;
}

/** Sends API requests and resolves with the decoded body, or rejects with an `ApiError`. */
export interface ApiClient {
  request<T>(request: ApiRequest): Promise<T>;
}

/** A failed API call: the message to show, plus the server's error code and HTTP status when known. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    /** `error_params`: values for the code's text, or the catalogue key of a precise reason (contract/error-codes.ts). */
    readonly params?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** How a request ended: the status and decoded body when a response arrived (none for a network failure). */
export interface ApiOutcome {
  status?: number;
  body?: unknown;
}

/**
 * Watches API traffic without changing it (the fixture recorder is one): called as each request
 * starts, with the body as sent; the function it returns, if any, gets the outcome.
 */
export type ApiObserver = (request: ApiRequest) => ((outcome: ApiOutcome) => void) | void;

/** The observers a client reports to. */
export interface ApiObservers {
  /** Adds an observer; returns the function that removes it. */
  add(observer: ApiObserver): () => void;
  /** Tells every observer a request starts; returns the function that reports its outcome to them. */
  start(request: ApiRequest): (outcome: ApiOutcome) => void;
}

/** Creates an observer list; an observer that throws is skipped, never the request. */
export function createApiObservers(): ApiObservers {
  const observers = new Set<ApiObserver>();
  const safely = <T>(run: () => T): T | undefined => {
    try {
      return run();
    } catch {
      return undefined;
    }
  };
  return {
    add(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    start(request) {
      const endings = [...observers].map((observer) => safely(() => observer(request)));
      return (outcome) => {
        for (const end of endings) if (end) safely(() => end(outcome));
      };
    },
  };
}

/** The observers of the app's API client. */
export const apiObservers: ApiObservers = createApiObservers();

/** Everything the client depends on, so tests can pass their own. */
export interface ApiClientOptions {
  baseURL?: string;
  loading?: LoadingFlag;
  /** Who watches the traffic; defaults to the app's `apiObservers`. */
  observers?: ApiObservers;
  /** The shared error handler: sees every failure before the request rejects. */
  onError?: (error: ApiError) => void;
  /** The fetch to use; defaults to the global one looked up at call time. */
  fetch?: typeof fetch;
}

/** The Accept header every request sends (spec section 7: JSON or plain text). */
export const ACCEPT_HEADER = 'application/json, text/plain, */*';

type Lookup = Record<string, unknown>;

const asRecord = (value: unknown): Lookup | undefined =>
  value !== null && typeof value === 'object' ? (value as Lookup) : undefined;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The string values of `value` when it is an object with some, else undefined. */
function stringValues(value: unknown): Readonly<Record<string, string>> | undefined {
  const entries = Object.entries(asRecord(value) ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/**
 * The message to show for a failed request, in the spec's order (section 8): `error_message`,
 * `data.error.message`, `message`, `errorMessage` of the response body, the error's own
 * message, then the generic catalogue message. Takes axios-style (`error.response`) and
 * redaxios-style (the response itself is the rejection) failures alike.
 */
export function extractErrorMessage(error: unknown): string {
  const failure = asRecord(error);
  const response = asRecord(failure?.response) ?? (failure && 'status' in failure ? failure : undefined);
  const data = asRecord(response?.data);
  return (
    text(data?.error_message) ??
    text(asRecord(asRecord(data?.data)?.error)?.message) ??
    text(data?.message) ??
    text(data?.errorMessage) ??
    text(failure?.message) ??
    t('apiError.server.error')
  );
}

/** The status and body of a failed request's response, if one arrived (redaxios rejects with the response). */
function failureOutcome(error: unknown): ApiOutcome {
  const failure = asRecord(error);
  const response = asRecord(failure?.response) ?? (failure && 'status' in failure ? failure : undefined);
  return typeof response?.status === 'number' ? { status: response.status, body: response.data } : {};
}

/** Turns any failure into an `ApiError` carrying the extracted message, status and code. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const failure = asRecord(error);
  const response = asRecord(failure?.response) ?? (failure && 'status' in failure ? failure : undefined);
  const status = typeof response?.status === 'number' ? response.status : undefined;
  const data = asRecord(response?.data);
  return new ApiError(extractErrorMessage(error), status, text(data?.error_code), stringValues(data?.error_params));
}

/** Creates an API client; the app uses `apiClient`, tests create their own. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const loading = options.loading ?? loadingFlag;
  const observers = options.observers ?? apiObservers;
  const http = redaxios.create({ baseURL: options.baseURL ?? config.apiBase, headers: { Accept: ACCEPT_HEADER } });

  return {
    async request<T>(request: ApiRequest): Promise<T> {
      const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
      // redaxios has no timeout option, so the signal is added by wrapping fetch.
      const timed: typeof fetch = request.timeoutMs
        ? (input, init) => fetchImpl(input, { ...init, signal: AbortSignal.timeout(request.timeoutMs ?? 0) })
        : fetchImpl;
      loading.start();
      const observed = observers.start(request);
      try {
        const response = await http<T>({
          url: request.path,
          method: request.method,
          params: request.params,
          data: request.body,
          fetch: timed,
        });
        observed({ status: response.status, body: response.data });
        return response.data;
      } catch (error) {
        observed(failureOutcome(error));
        const apiError = toApiError(error);
        options.onError?.(apiError);
        throw apiError;
      } finally {
        loading.finish();
      }
    },
  };
}

/** The app's API client. */
export const apiClient: ApiClient = createApiClient();
