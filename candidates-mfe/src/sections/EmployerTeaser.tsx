import { ButtonLink, paths, Section } from '@nativegtm/design-system';

export function EmployerTeaser() {
  return (
    <Section
      tone="inverse"
      eyebrow="For employers"
      title="Hiring AI-native GTM talent?"
      lead="Search candidates who have already been interviewed and rated on their skills and AI proficiency. Searching is free; you pay only when you hire."
      actions={
        <ButtonLink to={paths.comingSoon} variant="inverse" size="lg">
          Search Candidates
        </ButtonLink>
      }
      note="No credit card required"
    />
  );
}
