import { Footer, landingNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/shared';
import { CandidatesHero } from './sections/CandidatesHero';

export function CandidatesPage() {
  useDocumentTitle('AI-native GTM jobs for candidates');
  return (
    <>
      <SiteHeader links={landingNavLinks} signIn={{ label: 'Candidate Sign In', to: paths.comingSoon }} />
      <main id="main-content">
        <CandidatesHero />
      </main>
      <Footer />
    </>
  );
}
