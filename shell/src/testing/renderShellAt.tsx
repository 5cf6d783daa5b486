import { render } from '@testing-library/react';
import type { PageLoader } from '../remotes/pageLoader';
import { createMemoryHistory } from '../routing/history';
import { createShellNavigation } from '../routing/shellNavigation';
import { ShellRouter } from '../routing/ShellRouter';

/** The shell's router at `path`, in memory, with a test's page loader. */
export function renderShellAt(path: string, loader: Partial<PageLoader> & Pick<PageLoader, 'load'>) {
  const history = createMemoryHistory([path]);
  const navigation = createShellNavigation(history, { preload: jest.fn(), prefetch: jest.fn(), ...loader });
  const view = render(<ShellRouter navigation={navigation} />);
  return { history, navigation, ...view };
}
