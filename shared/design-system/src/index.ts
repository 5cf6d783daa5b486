/**
 * The public API of @nativegtm/design-system. Remotes and the shell import from here only, never from internals:
 * this package is a Module Federation singleton, and its surface is what every deployed remote relies on.
 */
import './tokens/tokens.css';
import './tokens/base.css';

// The list of token names stays out of the public API: only tests read it, and as part of a shared singleton it would
// ship to every visitor.
export { token, breakpoints } from './tokens/tokens';
export type { TokenName } from './tokens/tokens';
export { site, paths, documentTitle } from './config/site';
export type { SitePath } from './config/site';
export { remoteNames, exposedPage, isRemoteName } from './contracts';
export type { RemoteName, PageProps, PageComponent, PageModule, PageMeta } from './contracts';
export { PageRouter } from './ssr/PageRouter';
export type { PageRouterProps } from './ssr/PageRouter';
export { pageIdentifierPrefix } from './ssr/identifiers';
export { useDocumentTitle } from './hooks/useDocumentTitle';
export { Link, NavLink, useLocation, useNavigate, useSearchParams } from './router';
export type { LinkProps, NavLinkProps } from './router';
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
export { Icon, iconNames } from './ui/Icon/Icon';
export type { IconName } from './ui/Icon/Icon';
export { Section } from './ui/Section/Section';
export type { SectionProps, SectionTone } from './ui/Section/Section';
export { CardGrid } from './ui/CardGrid/CardGrid';
export type { CardGridProps } from './ui/CardGrid/CardGrid';
export { RoleCard } from './ui/RoleCard/RoleCard';
export type { RoleCardItem, RoleCardProps } from './ui/RoleCard/RoleCard';
export { RoleCardList } from './ui/RoleCard/RoleCardList';
export type { RoleCardListProps } from './ui/RoleCard/RoleCardList';
export { ReasonList } from './ui/ReasonList/ReasonList';
export type { ReasonItem, ReasonListProps } from './ui/ReasonList/ReasonList';
export { StepList } from './ui/StepList/StepList';
export type { StepItem, StepListProps } from './ui/StepList/StepList';
export { JobsTable } from './ui/JobsTable/JobsTable';
export type { JobRow, JobsTableProps } from './ui/JobsTable/JobsTable';
export { PreviewCard } from './ui/PreviewCard/PreviewCard';
export type { PreviewCardProps } from './ui/PreviewCard/PreviewCard';
export { Badge } from './ui/Badge/Badge';
export type { BadgeTone } from './ui/Badge/Badge';
