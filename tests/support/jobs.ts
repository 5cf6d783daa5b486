/** The six sample jobs of Featured Jobs, newest first: the list a visitor sees with no filter. */
export const allJobTitles = [
  'Product Marketing Manager',
  'Product Manager - SAAS',
  'Senior Product Manager',
  'Product Manager - Consumer',
  'Consumer Marketing Specialist',
  'Enterprise Account Executive',
];
