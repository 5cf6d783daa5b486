import { skillLevels, type JobRow, type ReasonItem, type RoleCardItem, type StepItem } from '@nativegtm/design-system';

/** The employers page's words and lists. Layout lives in the shared components; this file is what they say. */

export const freeOffer: readonly ReasonItem[] = [
  {
    title: 'Post Jobs',
    icon: 'edit',
    text: 'Publish your open roles in minutes and reach candidates who have already been assessed.',
  },
  {
    title: 'Search for Candidates',
    icon: 'search',
    text: 'Filter interviewed candidates by role, skill rating and AI proficiency.',
  },
  {
    title: 'Assign AI Interviews',
    icon: 'mic',
    text: 'Send any applicant our structured AI voice interview and get a rating back.',
  },
  {
    title: 'Get Introduced',
    icon: 'userPlus',
    text: 'Meet the candidates who fit. You pay only when you hire.',
  },
];

export const roles: readonly RoleCardItem[] = [
  {
    title: 'Account Executive - Sales',
    category: 'Sales',
    icon: 'briefcase',
    description: 'Closers who run AI-assisted discovery, prospecting and pipeline reviews.',
  },
  {
    title: 'Sales Leaders',
    category: 'Sales',
    icon: 'trendingUp',
    description: 'Managers and heads of sales who build teams that sell with AI.',
  },
  {
    title: 'Product Marketing',
    category: 'Marketing',
    icon: 'megaphone',
    description: 'Marketers who position, launch and enable sales for AI products.',
  },
  {
    title: 'Product Managers',
    category: 'Product',
    icon: 'compass',
    description: 'Product people who ship AI-native features from discovery to adoption.',
  },
];

export const reasons: readonly ReasonItem[] = [
  {
    title: 'Free and no risk',
    icon: 'shield',
    text: 'Posting, searching and interviewing cost nothing. You pay only when you hire.',
  },
  {
    title: 'Pre-vetted skills',
    icon: 'award',
    text: 'Every candidate is rated on functional skills and AI proficiency before you meet them.',
  },
  {
    title: 'Unearth value talent',
    icon: 'gem',
    text: 'Find skilled people that keyword filters and pedigree screens pass over.',
  },
  {
    title: 'Super fast sourcing',
    icon: 'zap',
    text: 'Go from job post to a shortlist of rated candidates in days, not weeks.',
  },
  {
    title: 'Reduce hiring bias',
    icon: 'scale',
    text: 'The same structured interview for everyone means decisions rest on skills.',
  },
];

export const hiringSteps: readonly StepItem[] = [
  { title: 'Post jobs', text: 'Describe the role and the skills that matter. Posting is free.' },
  { title: 'Candidate search initiated', text: 'We look for candidates whose assessed skills fit your role.' },
  {
    title: 'AI interview assessments',
    text: 'Candidates take a structured AI voice interview and receive a rating.',
    ratings: skillLevels,
  },
  { title: 'Search candidates', text: 'Browse the rated shortlist and pick the people you want to meet.' },
  { title: 'Get introduced', text: 'We introduce you. You pay only if you hire.' },
];

export const openRoles: readonly JobRow[] = [
  { position: 'Product Manager - Consumer', location: 'US (Remote)' },
  { position: 'Product Manager - SAAS', location: 'US (Remote)' },
  { position: 'Pre Sales Engineer', location: 'US (Remote)' },
  { position: 'Consumer Marketer', location: 'US (Remote)' },
  { position: 'B2B Sales Leader', location: 'US (Remote)' },
  { position: 'Product Marketer', location: 'US (Remote)' },
];
