/**
 * The router API pages may use. It comes from this package, never from react-router-dom directly: the router runs
 * in the shell, and a page reaches it only through the shell's copy of this singleton. (react-router-dom is not
 * shared itself, so the shell's build can tree-shake it to what the site uses; a remote that imported it directly
 * would get a private copy that sees no router. ESLint forbids that in the remotes.)
 */
export { Link, NavLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
export type { LinkProps, NavLinkProps } from 'react-router-dom';
