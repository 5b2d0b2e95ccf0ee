/** The app's one toast queue, with the spec's timings from config. */
import { config } from '../config.ts';
import { createToastQueue } from './toasts.ts';

export const appToasts = createToastQueue(config.toasts);
