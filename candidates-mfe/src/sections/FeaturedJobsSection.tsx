import { JobsTable, paths, Section } from '@nativegtm/design-system';
import { featuredJobs } from '../content';

export function FeaturedJobsSection() {
  return (
    <Section
      tone="muted"
      eyebrow="Hiring now"
      title="Featured Jobs"
      lead="A few of the roles our partner companies are filling across the US."
    >
      <JobsTable
        caption="Featured jobs: position, location and how to apply"
        jobs={featuredJobs}
        action={{ label: 'Apply Now', to: paths.comingSoon }}
      />
    </Section>
  );
}
