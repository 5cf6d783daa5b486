import { Footer, landingNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/shared';
import { EmployersHero } from './sections/EmployersHero';

export function EmployersPage() {
  useDocumentTitle('Hire AI-native GTM talent');
  return (
    <>
      <SiteHeader links={landingNavLinks} signIn={{ label: 'Employer Sign In', to: paths.comingSoon }} />
      <main id="main-content">
        <EmployersHero />
      </main>
      <Footer />
    </>
  );
}
