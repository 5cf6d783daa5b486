import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { ButtonLink } from '../Button/Button';
import { LogoLink } from '../Logo/Logo';
import { Container } from '../Container/Container';
import styles from './SiteHeader.module.css';

export interface NavItem {
  label: string;
  to: string;
}

export interface SiteHeaderProps {
  /** Site links, in order. */
  links: readonly NavItem[];
  /** The sign-in button: its label differs per page ("Candidate Sign In", "Employer Sign In", "Sign In"). */
  signIn: NavItem;
}

/**
 * The site header: logo, links and a sign-in button. It sticks to the top while scrolling; below 768 px the links
 * collapse behind a menu button, which closes again on navigation, on Escape and on a click outside the header.
 */
export function SiteHeader({ links, signIn }: SiteHeaderProps) {
  const { pathname, search } = useLocation();
  // The menu belongs to the location it was opened at: navigating anywhere closes it without an extra render pass.
  const location = `${pathname}${search}`;
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location;
  const setOpen = (value: boolean) => setOpenAt(value ? location : null);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenAt(null);
      toggleRef.current?.focus();
    };
    // The open menu covers the page; a click or tap on the page means the visitor is done with it.
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setOpenAt(null);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <header ref={headerRef} className={styles.header}>
      <Container className={styles.bar}>
        <LogoLink />
        <button
          ref={toggleRef}
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen(!open)}
        >
          <span className={styles.toggleIcon} data-open={open} aria-hidden="true" />
          {/* A fixed name: aria-expanded already says whether it is open, and a name that changes too is read twice. */}
          Menu
        </button>
        <nav id={menuId} className={styles.menu} data-open={open} aria-label="Main">
          <ul className={styles.links}>
            {links.map((link) => (
              <li key={link.label}>
                <NavLink
                  to={link.to}
                  end
                  onClick={close}
                  className={({ isActive }) => [styles.link, isActive && styles.active].filter(Boolean).join(' ')}
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <ButtonLink to={signIn.to} variant="outline" size="sm" className={styles.signIn} onClick={close}>
            {signIn.label}
          </ButtonLink>
        </nav>
      </Container>
    </header>
  );
}
