import { createContext, useContext } from 'react';

export interface NavigationStatus {
  /** The next screen is loading (a navigation or Try again). */
  loading: boolean;
  retry(): void;
}

export const NavigationStatusContext = createContext<NavigationStatus>({ loading: false, retry: () => undefined });

/** For the shell's layout (its progress bar) and the error screen (Try again). */
export function useNavigationStatus(): NavigationStatus {
  return useContext(NavigationStatusContext);
}
