import { paths, RoleCardList, Section } from '@nativegtm/design-system';
import { roles } from '../content';

export function RolesSection() {
  return (
    <Section
      eyebrow="Roles we place"
      title="Find your next AI-native GTM role"
      lead="Companies come to us for go-to-market people who already work with AI. Pick your track and apply once."
    >
      <RoleCardList roles={roles} action={{ label: 'Apply Now', to: paths.comingSoon }} />
    </Section>
  );
}
