/**
 * A step's links: in-app links, links opening a new tab (so the step keeps what was typed), links that return from
 * such a tab (closing it, or going Back), and links that wait out a server-set delay (a resend cooldown), shown
 * disabled with the seconds counting down. A link with an `event` tracks it when followed (cancelling a verification).
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { config } from '../config.ts';
import { track } from '../services/analytics.ts';
import type { StepLink } from '../engine/flow-types.ts';
import { t } from '../services/messages.ts';
import { readPath } from '../../contract/read-path.ts';
import type { StepResponse } from '../engine/flow-types.ts';
import { closeTab, goBack, isOnlyPageOfTab } from './tab-return.ts';
import { useSecondsLeft } from './use-seconds-left.ts';

/** A `closeTab` link: closes a tab opened beside the form, or goes Back to the form in the same tab. */
function ReturnLink({ link, close, className }: { link: StepLink; close: NonNullable<StepLink['closeTab']>; className: string }) {
  const [onlyPage] = useState(isOnlyPageOfTab);
  const [pressed, setPressed] = useState(false);
  if (!onlyPage) {
    return (
      <button type="button" data-step-action className={className} onClick={goBack}>
        {t(link.label)}
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        data-step-action
        className={className}
        onClick={() => {
          setPressed(true);
          closeTab();
        }}
      >
        {t(close.label)}
      </button>
      {pressed ? (
        <p className="body" role="status">
          {t(close.hint)}
        </p>
      ) : null}
    </>
  );
}

/** One link of the list with its href (under the app base). */
export interface ResolvedLink {
  link: StepLink;
  href: string;
}

/** What a link list needs besides its links. */
interface LinkListProps {
  response: StepResponse | undefined;
  /** Called as a link with `keepAnswer` is followed, with its target step. */
  onKeepAnswer?: (stepId: string) => void;
}

function StepLinkItem({ link, href, response, onKeepAnswer }: ResolvedLink & LinkListProps) {
  const wait = link.wait === undefined ? undefined : readPath(response, link.wait);
  const left = useSecondsLeft(typeof wait === 'number' ? wait : undefined, response);
  const className = link.style === 'button' ? 'button-primary button-link' : 'step-link';
  const label = t(link.label);
  const onClick =
    link.event || link.keepAnswer
      ? () => {
          if (link.event) track(link.event);
          if (link.keepAnswer) onKeepAnswer?.(link.go);
        }
      : undefined;
  if (left > 0) {
    return (
      <span className={`${className} step-link-waiting`} aria-disabled="true">
        {t('link.wait', { label, seconds: left })}
      </span>
    );
  }
  // A link-styled button looks like the step's other links (the step-action style), a button-styled one like a button.
  if (link.closeTab) return <ReturnLink link={link} close={link.closeTab} className={link.style === 'button' ? className : 'step-action'} />;
  if (link.newTab) {
    return (
      <a className={className} href={`${config.basePath}${href}`} target="_blank" rel="noopener" onClick={onClick}>
        {label}
      </a>
    );
  }
  return (
    <Link className={className} href={href} onClick={onClick}>
      {label}
    </Link>
  );
}

/** Renders the links under a step's form. */
export function StepLinkList({ links, ...rest }: { links: readonly ResolvedLink[] } & LinkListProps) {
  return (
    <div className="step-links">
      {links.map(({ link, href }) => (
        <StepLinkItem key={`${link.go}:${link.label}`} link={link} href={href} {...rest} />
      ))}
    </div>
  );
}
