/** What every panel of the panel registry receives: the parameters of the answer that led to the step, and its submit. */
export interface PanelProps {
  parameters: Readonly<Record<string, unknown>> | undefined;
  /** Sends the step's call with these values, as the step's form would (the passkey panel sends the browser's answer). */
  submit: (values: Readonly<Record<string, unknown>>) => void;
  /** True while the step's call is in flight. */
  busy: boolean;
}
