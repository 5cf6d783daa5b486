import { createPath, type NavigateFunction, type Navigator } from 'react-router-dom';

/**
 * The navigator a page's own React root gets (PageRouter): every navigation goes to the shell's router, the one
 * router of the document, exactly as the shell's own links do.
 */
export function routerNavigator(navigate: NavigateFunction): Navigator {
  return {
    createHref: (to) => (typeof to === 'string' ? to : createPath(to)),
    go: (delta) => void navigate(delta),
    push: (to, state, options) => void navigate(to, { ...options, state }),
    replace: (to, state, options) => void navigate(to, { ...options, state, replace: true }),
  };
}
