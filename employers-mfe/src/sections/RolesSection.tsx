import { paths, RoleCardList, Section } from '@nativegtm/design-system';
import { roles } from '../content';

export function RolesSection() {
  return (
    <Section
      tone="muted"
      eyebrow="Roles you can fill"
      title="Search AI-native GTM talent by role"
      lead="Every candidate has been interviewed and rated for the role they are looking for."
    >
      <RoleCardList roles={roles} action={{ label: 'Search', to: paths.comingSoon }} />
    </Section>
  );
}
