import { useMemo, useSyncExternalStore } from 'react';
import { Router } from 'react-router-dom';
import { ErrorScreen } from '../screens/ErrorScreen';
import { LoadingScreen } from '../screens/LoadingScreen';
import { NotFound } from '../screens/NotFound';
import { PageSlot } from '../screens/PageSlot';
import { ShellLayout } from '../screens/ShellLayout';
import { NavigationStatusContext } from './navigationContext';
import { ScreenBoundary } from './ScreenBoundary';
import type { Screen, ShellNavigation } from './shellNavigation';

function screenElement(screen: Screen, navigator: ShellNavigation['history']) {
  switch (screen.kind) {
    case 'page':
      // A new slot (and React root) per remote: two pages never share one.
      return <PageSlot key={screen.remote} remote={screen.remote} module={screen.module} navigator={navigator} />;
    case 'notFound':
      return <NotFound />;
    case 'error':
      return <ErrorScreen />;
  }
}

/**
 * The shell's router: react-router's declarative <Router> (what Link, NavLink, useLocation, useNavigate and
 * useSearchParams read, in the shell and in every page) on the location of the screen on show, which the shell's
 * navigation moves once the next screen is ready (see createShellNavigation).
 */
export function ShellRouter({ navigation }: { navigation: ShellNavigation }) {
  const state = useSyncExternalStore(navigation.subscribe, () => navigation.state);
  const { location, action, screen, loading, attempt, preventScrollReset } = state;
  const status = useMemo(() => ({ loading, retry: navigation.retry }), [loading, navigation]);
  const remote = screen?.kind === 'page' || screen?.kind === 'error' ? screen.remote : undefined;

  return (
    <Router location={location} navigationType={action} navigator={navigation.history}>
      <NavigationStatusContext value={status}>
        {screen ? (
          // The outer boundary is for the shell's own code around the screen: the error screen, never a blank page.
          <ScreenBoundary remote={undefined} resetKey={`${location.key}:${attempt}`}>
            <ShellLayout scroll={{ history: navigation.history, location, action, preventScrollReset }}>
              <ScreenBoundary remote={remote} resetKey={`${location.key}:${attempt}`}>
                {screenElement(screen, navigation.history)}
              </ScreenBoundary>
            </ShellLayout>
          </ScreenBoundary>
        ) : (
          // The first visit without the page's HTML (its remote was late on the server, or failed), until it loads.
          <LoadingScreen />
        )}
      </NavigationStatusContext>
    </Router>
  );
}
