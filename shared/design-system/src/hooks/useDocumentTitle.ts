import { useEffect } from 'react';
import { documentTitle } from '../config/site';

/** Sets "<screen> · NativeGTM" as the document title while the screen is shown. */
export function useDocumentTitle(screen?: string): void {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
}
