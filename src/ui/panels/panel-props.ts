import type { StepCall } from '../../engine/flow-types.ts';

/** What every panel of the panel registry receives: the parameters of the answer that led to the step, and its calls. */
export interface PanelProps {
  parameters: Readonly<Record<string, unknown>> | undefined;
  /** Sends the step's call with these values, as the step's form would (the passkey panel sends the browser's answer). */
  submit: (values: Readonly<Record<string, unknown>>) => void;
  /** Whether the panel may start on its own; false on a step whose form the user may fill in first. */
  autoStart?: boolean;
  /** True while the step's call is in flight. */
  busy: boolean;
  /** The step's `panelCalls`, by name. */
  calls?: Readonly<Record<string, StepCall>>;
  /** The page query, which calls carry. */
  query?: URLSearchParams;
  /** Makes one of `calls` with `values` and moves on as its answer says. */
  submitCall?: (call: StepCall, values: Readonly<Record<string, unknown>>) => void;
}
