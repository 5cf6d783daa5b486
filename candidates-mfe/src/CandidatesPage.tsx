import { Footer, landingNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/design-system';
import { CandidatesHero } from './sections/CandidatesHero';
import { EmployerTeaser } from './sections/EmployerTeaser';
import { FeaturedJobsSection } from './sections/FeaturedJobsSection';
import { HowItWorksSection } from './sections/HowItWorksSection';
import { ReasonsSection } from './sections/ReasonsSection';
import { RolesSection } from './sections/RolesSection';
import { meta } from './meta';

export function CandidatesPage() {
  useDocumentTitle(meta.title);
  return (
    <>
      <SiteHeader links={landingNavLinks} signIn={{ label: 'Candidate Sign In', to: paths.comingSoon }} />
      <main id="main-content">
        <CandidatesHero />
        <RolesSection />
        <HowItWorksSection />
        <ReasonsSection />
        <EmployerTeaser />
        <FeaturedJobsSection />
      </main>
      <Footer />
    </>
  );
}
