import type { JobRow, ReasonItem, RoleCardItem, StepItem } from '@nativegtm/design-system';

/** The candidates page's words and lists. Layout lives in the shared components; this file is what they say. */

export const roles: readonly RoleCardItem[] = [
  {
    title: 'Account Executive - Sales',
    category: 'Sales',
    icon: 'briefcase',
    description: 'Own the full cycle from discovery to close, with AI working your pipeline alongside you.',
  },
  {
    title: 'Sales Engineer',
    category: 'Sales',
    icon: 'code',
    description: 'Turn AI products into business cases with technical discovery, demos and proofs of value.',
  },
  {
    title: 'Sales Leader',
    category: 'Sales',
    icon: 'trendingUp',
    description: 'Build and coach teams that sell with AI, and forecast with data instead of gut feeling.',
  },
  {
    title: 'Product Manager',
    category: 'Product',
    icon: 'compass',
    description: 'Ship AI-native products, from the customer problem to launch and adoption.',
  },
  {
    title: 'Product Marketing',
    category: 'Marketing',
    icon: 'megaphone',
    description: 'Position, price and launch AI products, and give sales the story that wins deals.',
  },
];

export const steps: readonly StepItem[] = [
  {
    title: 'Upload your resume',
    text: 'Tell us where you have been. It takes two minutes and gives the interview its context.',
  },
  {
    title: 'Take the AI interview',
    text: 'One 15-minute voice interview assesses your functional skills and your AI proficiency.',
    ratings: ['Elite', 'Pro', 'Moderate', 'Basic'],
  },
  {
    title: 'Get introduced',
    text: 'We introduce you to companies whose roles match your rating, including roles that are not public.',
  },
];

export const reasons: readonly ReasonItem[] = [
  {
    title: 'Interview once',
    icon: 'mic',
    text: 'One interview is shared with every matching company, instead of a dozen first-round calls.',
  },
  {
    title: 'Second chances',
    icon: 'repeat',
    text: 'Not happy with your score? Re-interview and improve it. Your best result is the one companies see.',
  },
  {
    title: 'Reduce biases',
    icon: 'scale',
    text: 'Everyone answers the same structured questions and is rated on skills, not on pedigree.',
  },
  {
    title: 'Right role',
    icon: 'target',
    text: 'Introductions follow your assessed skills and AI proficiency, so the roles fit what you do best.',
  },
  {
    title: 'Confidential roles',
    icon: 'lock',
    text: 'Get introduced to roles that companies are filling quietly, before they are ever posted.',
  },
];

export const featuredJobs: readonly JobRow[] = [
  { position: 'Enterprise Account Executive', location: 'US' },
  { position: 'Sales Engineer', location: 'US' },
  { position: 'Product Manager - SAAS', location: 'US' },
  { position: 'Product Marketing Manager', location: 'US' },
  { position: 'Sales Leader', location: 'US' },
];
