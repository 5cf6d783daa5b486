import { ButtonLink, Hero, paths } from '@nativegtm/design-system';
import { ShortlistPreview } from './ShortlistPreview';

export function EmployersHero() {
  return (
    <Hero
      eyebrow="Free to post, search and interview. Pay only when you hire."
      title="Hire Vetted AI-Native GTM Talent"
      lead="Post jobs, search pre-assessed candidates and assign AI interviews, all free. Meet sales, marketing and product people who already work with AI."
      bullets={[
        'Fewer biases: every candidate takes the same structured AI interview',
        'Faster sourcing: shortlists of rated candidates in days, not weeks',
        'Lower cost for skilled talent: no fees until you hire',
      ]}
      actions={
        <ButtonLink to={paths.comingSoon} size="lg">
          Search AI Native Candidates
        </ButtonLink>
      }
      note="No credit card required."
      aside={<ShortlistPreview />}
    />
  );
}
