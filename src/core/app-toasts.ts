/** The app's one toast queue, with the spec's timings from config. */
import { servicesConfig } from '../services-config.ts';
import { createToastQueue } from './toasts.ts';

export const appToasts = createToastQueue(servicesConfig.toasts);
