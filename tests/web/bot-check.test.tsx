/**
 * The bot-check widget: it renders Turnstile with the site key and hands its token to the next submit
 * once; when its script cannot load, the user is told and bot_check_load_error is tracked.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeBotCheckToken } from '../../src/services/bot-check-token.ts';
import BotCheck from '../../src/ui/services/bot-check.tsx';

type Host = { turnstile?: unknown; dataLayer?: Array<Record<string, unknown>> };

afterEach(() => {
  delete (window as Host).turnstile;
  delete (window as Host).dataLayer;
});

describe('bot-check widget', () => {
  it('renders the widget and passes its token to one submit, then asks for a fresh one', async () => {
    let issue: (token: string) => void = () => undefined;
    const turnstile = {
      render: vi.fn((_el: HTMLElement, options: { callback: (token: string) => void }) => {
        issue = options.callback;
        return 'widget-1';
      }),
      reset: vi.fn(),
      remove: vi.fn(),
    };
    (window as Host).turnstile = turnstile;
    const load = vi.fn(async (_src: string) => undefined);
    render(<BotCheck load={load} />);
    await waitFor(() => expect(turnstile.render).toHaveBeenCalled());
    expect(load.mock.calls[0]?.[0]).toMatch(/^https:\/\/challenges\.cloudflare\.com\/turnstile\/v0\/api\.js/);
    issue('token-1');
    expect(takeBotCheckToken()).toBe('token-1');
    expect(turnstile.reset).toHaveBeenCalledWith('widget-1');
    expect(takeBotCheckToken()).toBe('');
  });

  it('tells the user and tracks bot_check_load_error when the script cannot load', async () => {
    (window as Host).dataLayer = [];
    render(<BotCheck load={async () => Promise.reject(new Error('blocked'))} />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'The security check could not load. Please check your connection and reload the page.');
    expect((window as Host).dataLayer).toEqual([{ event: 'bot_check_load_error' }]);
  });
});
