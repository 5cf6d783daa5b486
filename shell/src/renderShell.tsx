import { StrictMode, startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { PageLoader } from './remotes/pageLoader';
import { createBrowserHistory } from './routing/history';
import { createShellNavigation, type ShellNavigation } from './routing/shellNavigation';
import { ShellRouter } from './routing/ShellRouter';
import { findServerPage, ServerPageContext, serverPageHandoff } from './screens/serverPage';
import { inTaskOfItsOwn } from './tasks';

/**
 * Mounts the shell (router, 404, error and loading screens) with a page loader. The composed site passes the Module
 * Federation loader; the monolith benchmark build passes one with the four pages imported statically.
 * Resolves once the first route has settled (its page, the 404 or the error screen is what renders next).
 *
 * When the document arrived with HTML (a page rendered by its remote, or the 404 screen, after #root), that HTML stays
 * on screen, untouched, until the first route has settled; then the shell renders, and in the commit that shows it
 * the page's slot takes the server's nodes over where they are (see PageSlot), or, for the 404 and error screens,
 * they are removed. A commit is atomic, so no frame ever shows an empty or half-built screen, and no painted node
 * moves. That render is a transition: it yields to the browser every few milliseconds instead of holding the main
 * thread for the whole shell, since the screen it replaces is already the right one.
 *
 * The navigation starts first (the history, the first route's page load), React's root in the next task: the first
 * call into React DOM compiles much of its code and attaches its event listeners, and together they are one of the
 * start-up's long tasks on a phone.
 *
 * `onNavigation` is handed the shell's navigation as soon as it exists, to follow the screens it shows (field data).
 */
export function renderShell(
  pageLoader: PageLoader,
  { onNavigation }: { onNavigation?: (navigation: ShellNavigation) => void } = {},
): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The shell needs a #root element in index.html');

  const serverPage = findServerPage();
  const handoff = serverPageHandoff(serverPage);
  const navigation = createShellNavigation(createBrowserHistory(), pageLoader);
  onNavigation?.(navigation);
  const app = (
    <StrictMode>
      <ServerPageContext value={handoff}>
        <ShellRouter navigation={navigation} />
      </ServerPageContext>
    </StrictMode>
  );

  const settled = new Promise<void>((resolve) => {
    if (navigation.state.screen) return resolve();
    const unsubscribe = navigation.subscribe(() => {
      if (!navigation.state.screen) return;
      unsubscribe();
      resolve();
    });
  });

  const root = inTaskOfItsOwn(() => createRoot(container));
  if (!serverPage) {
    return root.then((created) => {
      created.render(app);
      return settled;
    });
  }
  return Promise.all([root, settled]).then(([created]) => {
    startTransition(() => created.render(<AfterCommit run={() => handoff.discardUntaken()}>{app}</AfterCommit>));
  });
}

/** Runs `run` in the commit that first shows `children`, after their own layout effects (the page slot's take). */
function AfterCommit({ run, children }: { run: () => void; children: ReactNode }) {
  useLayoutEffect(run, [run]);
  return children;
}
