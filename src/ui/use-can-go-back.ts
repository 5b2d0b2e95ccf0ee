/**
 * Whether the browser has an earlier page of this site to go back to. The Navigation API knows
 * exactly (only same-origin entries count); where it is missing, any earlier entry counts.
 */
import { useLocation } from 'wouter';

/** The slice of the Navigation API read here (not yet in TypeScript's DOM library). */
interface NavigationHistory {
  canGoBack: boolean;
}

/** True when going back stays within reach of the browser's history; re-checked on every route change. */
export function useCanGoBack(): boolean {
  // Subscribing to the location re-renders the caller after each navigation.
  useLocation();
  const navigation = (window as Window & { navigation?: NavigationHistory }).navigation;
  return navigation ? navigation.canGoBack : window.history.length > 1;
}
