import { Footer, landingNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/design-system';
import { EmployersHero } from './sections/EmployersHero';
import { FreeOfferSection } from './sections/FreeOfferSection';
import { HiringFlowSection } from './sections/HiringFlowSection';
import { OpenRolesSection } from './sections/OpenRolesSection';
import { ReasonsSection } from './sections/ReasonsSection';
import { RolesSection } from './sections/RolesSection';
import { meta } from './meta';

export function EmployersPage() {
  useDocumentTitle(meta.title);
  return (
    <>
      <SiteHeader links={landingNavLinks} signIn={{ label: 'Employer Sign In', to: paths.comingSoon }} />
      <main id="main-content">
        <EmployersHero />
        <FreeOfferSection />
        <RolesSection />
        <ReasonsSection />
        <HiringFlowSection />
        <OpenRolesSection />
      </main>
      <Footer />
    </>
  );
}
