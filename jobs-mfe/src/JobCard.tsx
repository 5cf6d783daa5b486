import { useId } from 'react';
import { Badge, ButtonLink, Icon, paths, SkillBadge, VisuallyHidden } from '@nativegtm/design-system';
import type { Job } from './jobs/job';
import { formatPostedDate } from './jobs/postedDate';
import styles from './JobCard.module.css';

/** "Cobaltline Systems" → "CS", "Orbitra" → "O": a stand-in for a company logo the sample data does not have. */
function companyInitials(company: string): string {
  return company
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

export function JobCard({ job }: { job: Job }) {
  const titleId = useId();
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <header className={styles.header}>
        <span className={styles.monogram} aria-hidden="true">
          {companyInitials(job.company)}
        </span>
        <div className={styles.heading}>
          <h2 id={titleId} className={styles.title}>
            {job.title}
          </h2>
          <p className={styles.company}>{job.company}</p>
        </div>
      </header>

      <ul className={styles.meta}>
        <li className={styles.metaItem}>
          <Icon name="mapPin" className={styles.metaIcon} />
          <VisuallyHidden>Location: </VisuallyHidden>
          {job.location}
        </li>
        <li className={styles.metaItem}>
          <Icon name="calendar" className={styles.metaIcon} />
          <span>
            Posted <time dateTime={job.datePosted}>{formatPostedDate(job.datePosted)}</time>
          </span>
        </li>
      </ul>

      <ul className={styles.badges}>
        <li>
          <VisuallyHidden>Job function: </VisuallyHidden>
          <Badge tone="brand">{job.jobFunction}</Badge>
        </li>
        <li>
          <VisuallyHidden>Skill level: </VisuallyHidden>
          <SkillBadge level={job.skillLevel} />
        </li>
        <li>
          <VisuallyHidden>Type: </VisuallyHidden>
          <Badge tone="outline">{job.type}</Badge>
        </li>
      </ul>

      <p className={styles.description}>{job.description}</p>

      <div className={styles.actions}>
        {/* Six links all named "Apply Now" would be indistinguishable in a screen reader's links list. */}
        <ButtonLink to={paths.comingSoon} className={styles.apply}>
          Apply Now<VisuallyHidden> for {job.title}</VisuallyHidden>
        </ButtonLink>
      </div>
    </article>
  );
}
