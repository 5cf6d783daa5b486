import { skillLevels } from '@nativegtm/design-system';
import { jobs } from './data';
import { jobFunctions, jobLocations } from './options';

describe('the sample jobs', () => {
  it('are the six of the product decisions, ids 1-6, all Full-time', () => {
    expect(jobs.map((job) => [job.id, job.title])).toEqual([
      [1, 'Product Manager - Consumer'],
      [2, 'Product Manager - SAAS'],
      [3, 'Enterprise Account Executive'],
      [4, 'Product Marketing Manager'],
      [5, 'Consumer Marketing Specialist'],
      [6, 'Senior Product Manager'],
    ]);
    expect(new Set(jobs.map((job) => job.type))).toEqual(new Set(['Full-time']));
  });

  it('were posted on distinct days from 2025-06-10 to 2025-06-15', () => {
    const dates = jobs.map((job) => job.datePosted);
    expect(new Set(dates).size).toBe(jobs.length);
    for (const date of dates) {
      expect(date).toMatch(/^2025-06-1[0-5]$/);
    }
  });

  it('cover every job function, the Elite, Pro and Moderate levels, and several locations', () => {
    expect(new Set(jobs.map((job) => job.jobFunction))).toEqual(new Set(jobFunctions));
    const levels = new Set(jobs.map((job) => job.skillLevel));
    for (const level of ['Elite', 'Pro', 'Moderate']) expect(levels).toContain(level);
    for (const level of levels) expect(skillLevels).toContain(level);
    const locations = new Set(jobs.map((job) => job.location));
    expect(locations.size).toBeGreaterThan(2);
    for (const location of locations) expect(jobLocations).toContain(location);
  });

  it('have a company and a description of one or two sentences', () => {
    for (const job of jobs) {
      expect(job.company.trim()).not.toBe('');
      const sentences = job.description.split(/[.!?](?:\s|$)/).filter((part) => part.trim() !== '');
      expect(sentences.length).toBeGreaterThanOrEqual(1);
      expect(sentences.length).toBeLessThanOrEqual(2);
    }
  });
});
