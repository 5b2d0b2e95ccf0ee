/**
 * Whether the browser has an earlier page of this site to go back to. The Navigation API knows
 * exactly (only same-origin entries count); where it is missing, any earlier entry counts.
 */
import { useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';

/** The slice of the Navigation API read here (not yet in TypeScript's DOM library). */
interface NavigationHistory {
  canGoBack: boolean;
}

function canGoBack(): boolean {
  const navigation = (window as Window & { navigation?: NavigationHistory }).navigation;
  return navigation ? navigation.canGoBack : window.history.length > 1;
}

// The history only changes with a navigation, which re-renders through the router; nothing to subscribe to.
const subscribe = () => () => undefined;
// The prerendered login screen has no history, so hydration starts without the button.
const noHistory = () => false;

/** True when going back stays within reach of the browser's history; re-checked on every route change. */
export function useCanGoBack(): boolean {
  // Subscribing to the location re-renders the caller after each navigation.
  useLocation();
  return useSyncExternalStore(subscribe, canGoBack, noHistory);
}
