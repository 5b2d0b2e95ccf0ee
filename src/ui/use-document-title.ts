/** Keeps the document title on `title` (the spec's English words), in the language shown, also after a switch. */
import { useEffect } from 'react';
import { localTitle } from '../services/document-title.ts';
import { useLanguage } from './language-preference.ts';

/** Sets `document.title` to `title` in the current language: by its parts' keys (`titleKeys`) when the step gives them. */
export function useDocumentTitle(title: string, keys?: readonly string[]): void {
  const language = useLanguage();
  useEffect(() => {
    document.title = localTitle(title, keys);
  }, [title, keys, language]);
}
