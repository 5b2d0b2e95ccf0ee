/** An operator's mistake, told in one line. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
}
