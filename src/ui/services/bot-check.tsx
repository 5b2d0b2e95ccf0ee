/**
 * The bot-check widget (Cloudflare Turnstile) under a bot-checked step's form: its script loads on demand,
 * its token goes with the submit (src/services/bot-check-token.ts). When the script cannot load, the user is told
 * so in an alert and bot_check_load_error is tracked; the form stays usable, and the server's answer says
 * why a submit without a token was refused.
 */
import { useEffect, useRef, useState } from 'react';
import { config } from '../../config.ts';
import { track } from '../../services/analytics.ts';
import { onBotCheckRenew, setBotCheckToken } from '../../services/bot-check-token.ts';
import { loadScript } from '../../services/load-script.ts';
import { t } from '../../services/messages.ts';

/** The part of Turnstile's browser API the widget uses. */
interface Turnstile {
  render(container: HTMLElement, options: Record<string, unknown>): string;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

/** The site key in force: Cloudflare's always-passing dummy key, or the operator's live one. */
function botCheckSiteKey(): string {
  return import.meta.env.VITE_BOT_CHECK === 'dummy' ? config.botCheck.dummySiteKey : config.botCheck.liveSiteKey;
}

/** Renders the widget; `load` is replaceable for tests. */
export default function BotCheck({ load = loadScript }: { load?: (src: string) => Promise<void> }) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let widgetId: string | undefined;
    let alive = true;
    const host = window as { turnstile?: Turnstile };
    load(config.botCheck.scriptUrl).then(
      () => {
        const turnstile = host.turnstile;
        if (!alive || !container.current || !turnstile) return;
        widgetId = turnstile.render(container.current, {
          sitekey: botCheckSiteKey(),
          callback: setBotCheckToken,
          'expired-callback': () => setBotCheckToken(''),
          'error-callback': () => setBotCheckToken(''),
        });
        onBotCheckRenew(() => widgetId !== undefined && turnstile.reset(widgetId));
      },
      () => {
        if (!alive) return;
        track('bot_check_load_error');
        setFailed(true);
      },
    );
    return () => {
      alive = false;
      if (widgetId !== undefined) host.turnstile?.remove(widgetId);
      onBotCheckRenew(() => undefined);
      setBotCheckToken('');
    };
  }, [load]);

  return (
    <div className="bot-check">
      <div ref={container} />
      {failed ? (
        <p className="alert" role="alert">
          {t('botCheck.loadError')}
        </p>
      ) : null}
    </div>
  );
}
