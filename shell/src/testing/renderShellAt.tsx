import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import type { PageLoader } from '../remotes/pageLoader';
import { createMemoryHistory } from '../routing/history';
import { createShellNavigation } from '../routing/shellNavigation';
import { ShellRouter } from '../routing/ShellRouter';

/**
 * The shell's router at `path` (or at the last of several history entries), in memory, with a test's page loader; in
 * StrictMode, as renderShell renders it.
 */
export function renderShellAt(path: string | string[], loader: Partial<PageLoader> & Pick<PageLoader, 'load'>) {
  const history = createMemoryHistory(typeof path === 'string' ? [path] : path);
  const navigation = createShellNavigation(history, { preload: jest.fn(), prefetch: jest.fn(), ...loader });
  const view = render(
    <StrictMode>
      <ShellRouter navigation={navigation} />
    </StrictMode>,
  );
  return { history, navigation, ...view };
}
