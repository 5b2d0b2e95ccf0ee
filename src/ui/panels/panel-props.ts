/** What every panel of the panel registry receives: the parameters of the answer that led to the step. */
export interface PanelProps {
  parameters: Readonly<Record<string, unknown>> | undefined;
}
