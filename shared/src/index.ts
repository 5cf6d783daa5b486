/**
 * The public API of @nativegtm/shared. Remotes and the shell import from here only, never from internals:
 * this package is a Module Federation singleton, and its surface is what every deployed remote relies on.
 */
import './tokens/tokens.css';
import './tokens/base.css';

export { token, tokenNames, breakpoints } from './tokens/tokens';
export type { TokenName } from './tokens/tokens';
export { site, paths, documentTitle } from './config/site';
export type { SitePath } from './config/site';
export { remoteNames, exposedPage, isRemoteName } from './contracts';
export type { RemoteName, PageProps, PageComponent, PageModule } from './contracts';
export { useDocumentTitle } from './hooks/useDocumentTitle';
export { Button, ButtonLink } from './ui/Button/Button';
export type { ButtonProps, ButtonLinkProps, ButtonVariant, ButtonSize } from './ui/Button/Button';
export { Container } from './ui/Container/Container';
export { Logo, LogoLink } from './ui/Logo/Logo';
export { Footer } from './ui/Footer/Footer';
export type { FooterLink, FooterProps } from './ui/Footer/Footer';
export { VisuallyHidden } from './ui/VisuallyHidden/VisuallyHidden';
export { SiteHeader } from './ui/SiteHeader/SiteHeader';
export type { SiteHeaderProps, NavItem } from './ui/SiteHeader/SiteHeader';
export { Hero } from './ui/Hero/Hero';
export type { HeroProps } from './ui/Hero/Hero';
export { CheckIcon } from './ui/Icon/CheckIcon';
export { SkillBadge, skillLevels } from './ui/SkillBadge/SkillBadge';
export type { SkillLevel } from './ui/SkillBadge/SkillBadge';
export { landingNavLinks, jobsNavLinks } from './config/navigation';
