import type { Job } from './job';

/**
 * The sample jobs. Companies and descriptions are fictional. The assignments are chosen so every job function and the
 * Elite, Pro and Moderate levels appear, every location has a job, and some function + location pairs match nothing
 * (the empty state is reachable).
 */
export const jobs: readonly Job[] = [
  {
    id: 1,
    title: 'Product Manager - Consumer',
    company: 'Loopwell',
    location: 'San Francisco, CA',
    jobFunction: 'Product Management',
    datePosted: '2025-06-12',
    description:
      'Own the roadmap of a habit-tracking app used by two million people, turning AI-driven insights into features members love.',
    skillLevel: 'Pro',
    type: 'Full-time',
  },
  {
    id: 2,
    title: 'Product Manager - SAAS',
    company: 'Stackhaven',
    location: 'US (Remote)',
    jobFunction: 'Product Management',
    datePosted: '2025-06-14',
    description:
      'Lead the analytics suite of a B2B platform for finance teams and shape its AI-assisted reporting from discovery to launch.',
    skillLevel: 'Elite',
    type: 'Full-time',
  },
  {
    id: 3,
    title: 'Enterprise Account Executive',
    company: 'Cobaltline Systems',
    location: 'New York, NY',
    jobFunction: 'Account Executive',
    datePosted: '2025-06-10',
    description:
      'Win and grow seven-figure accounts for an AI security platform, working with solutions engineers from first call to signature.',
    skillLevel: 'Elite',
    type: 'Full-time',
  },
  {
    id: 4,
    title: 'Product Marketing Manager',
    company: 'Fernway Labs',
    location: 'Austin, TX',
    jobFunction: 'Product Marketing',
    datePosted: '2025-06-15',
    description:
      'Craft positioning and launch plans for an AI writing assistant, and give the sales team messaging that lands.',
    skillLevel: 'Pro',
    type: 'Full-time',
  },
  {
    id: 5,
    title: 'Consumer Marketing Specialist',
    company: 'Sunpath Outfitters',
    location: 'Los Angeles, CA',
    jobFunction: 'Consumer Marketing',
    datePosted: '2025-06-11',
    description:
      'Run lifecycle and social campaigns for a direct-to-consumer outdoor brand, using AI tools to test creative at speed.',
    skillLevel: 'Moderate',
    type: 'Full-time',
  },
  {
    id: 6,
    title: 'Senior Product Manager',
    company: 'Orbitra',
    location: 'US (Remote)',
    jobFunction: 'Product Management',
    datePosted: '2025-06-13',
    description:
      'Set the strategy for an AI agent platform used by enterprise support teams and coach two product managers along the way.',
    skillLevel: 'Elite',
    type: 'Full-time',
  },
];
