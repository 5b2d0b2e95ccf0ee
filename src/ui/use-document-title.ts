/** Keeps the document title on `title` (the spec's English words), in the language shown, also after a switch. */
import { useEffect } from 'react';
import { localTitle } from '../services/document-title.ts';
import { useLanguage } from './language-preference.ts';

/** Sets `document.title` to `title` in the current language. */
export function useDocumentTitle(title: string): void {
  const language = useLanguage();
  useEffect(() => {
    document.title = localTitle(title);
  }, [title, language]);
}
