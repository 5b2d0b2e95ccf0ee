/** The app's one jotai store, so services started outside React (flags, analytics) can set atoms the views read. */
import { createStore } from 'jotai';

export const appStore = createStore();
