/** The shared loading flag as a jotai atom, kept in step with the React-free flag of src/services/loading.ts. */
import { atom } from 'jotai';
import { loadingFlag } from '../services/loading.ts';

/** True while any API request is in flight. */
export const loadingAtom = atom(loadingFlag.get());

loadingAtom.onMount = (set) => {
  // The flag may have changed before the first subscriber arrived.
  set(loadingFlag.get());
  return loadingFlag.subscribe(set);
};
