/**
 * The pages' own script, a few hundred bytes. It starts the app (src/main.tsx, already downloading as the page's
 * `<link rel="modulepreload" data-app>`: scripts/vite/start-after-paint.ts) once the browser has painted the
 * prerendered first screen. As the page's script, the app ran as soon as the page was parsed whenever it had
 * downloaded by then, and its evaluation and hydration held that first paint back: hundreds of milliseconds on a
 * slow phone. Importing it twice is harmless: a module runs once.
 */
/** How long the app waits for the first paint at most. */
const LONGEST_WAIT_MS = 3000;

const app = document.querySelector<HTMLLinkElement>('link[data-app]')?.href;
const start = () => app && import(/* @vite-ignore */ app);
const painted = (entries: PerformanceObserverEntryList) => entries.getEntriesByName('first-contentful-paint').length > 0 && start();

// Nothing to wait for: an empty page (only the app paints it), a hidden tab (it paints nothing until shown), or a
// browser that does not tell when it paints (then it starts just after the next frame).
if (!document.getElementById('root')?.hasChildNodes() || document.visibilityState === 'hidden') void start();
else if (PerformanceObserver.supportedEntryTypes.includes('paint')) new PerformanceObserver(painted).observe({ type: 'paint', buffered: true });
else requestAnimationFrame(() => setTimeout(start));
document.addEventListener('visibilitychange', start, { once: true });
// Never wait for ever: a window the browser does not paint while it stays visible (occluded) starts all the same.
setTimeout(start, LONGEST_WAIT_MS);
