import { JobsTable, paths, Section } from '@nativegtm/design-system';
import { openRoles } from '../content';

export function OpenRolesSection() {
  return (
    <Section
      eyebrow="Hire now"
      title="Roles companies are filling with us"
      lead="Candidates for these roles are interviewed, rated and ready to meet."
    >
      <JobsTable
        caption="Roles you can hire for: position, location and how to hire"
        jobs={openRoles}
        action={{ label: 'Hire Now', to: paths.comingSoon }}
      />
    </Section>
  );
}
