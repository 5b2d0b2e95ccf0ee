/**
 * A stand-in for markdown-to-jsx's `Markdown` (aliased in vite.config.ts): rjsf only uses it for
 * rich descriptions, which our forms do not enable, and the real parser would weigh on the login bundle.
 */
import type { ReactNode } from 'react';

/** Props rjsf passes to `Markdown`; `options` is accepted and ignored. */
export interface MarkdownProps {
  children?: ReactNode;
  options?: unknown;
  'data-testid'?: string;
}

/** Renders the text as is, without markdown parsing. */
export function Markdown({ children, 'data-testid': testId }: MarkdownProps) {
  return <span data-testid={testId}>{children}</span>;
}

export default Markdown;
