import type { SkillLevel } from '@nativegtm/design-system';
import type { JobFunction, JobLocation } from './options';

/** The only job type the product shows today. */
type JobType = 'Full-time';

/** A job on the Featured Jobs page (SPEC section 3). */
export interface Job {
  id: number;
  title: string;
  company: string;
  location: JobLocation;
  jobFunction: JobFunction;
  /** Calendar date, `YYYY-MM-DD`: the day the job was posted, the same for visitors in every time zone. */
  datePosted: string;
  description: string;
  skillLevel: SkillLevel;
  type: JobType;
}
