/**
 * A step's actions: buttons that make a call without leaving the step (ask for a new code). One with a server-set
 * wait (a resend cooldown) is disabled, counting the seconds down, until the wait is over.
 */
import type { StepAction, StepResponse } from '../engine/flow-types.ts';
import { t } from '../services/messages.ts';
import { readPath } from '../../contract/read-path.ts';
import { useSecondsLeft } from './use-seconds-left.ts';

interface ActionProps {
  action: StepAction;
  response: StepResponse | undefined;
  busy: boolean;
  onAct: (action: StepAction) => void;
}

function StepActionButton({ action, response, busy, onAct }: ActionProps) {
  const wait = action.wait === undefined ? undefined : readPath(response, action.wait);
  const left = useSecondsLeft(typeof wait === 'number' ? wait : undefined, response);
  const label = t(action.label);
  return (
    <button type="button" data-step-action className={left > 0 ? 'step-action step-link-waiting' : 'step-action'} disabled={busy || left > 0} onClick={() => onAct(action)}>
      {left > 0 ? t('link.wait', { label, seconds: left }) : label}
    </button>
  );
}

/** Renders the step's actions. */
export function StepActionList({ actions, ...rest }: Omit<ActionProps, 'action'> & { actions: readonly StepAction[] }) {
  return (
    <div className="step-links">
      {actions.map((action) => (
        <StepActionButton key={`${action.call.method} ${action.call.path}`} action={action} {...rest} />
      ))}
    </div>
  );
}

