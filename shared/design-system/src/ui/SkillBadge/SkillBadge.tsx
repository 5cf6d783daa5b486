import { Badge, type BadgeTone } from '../Badge/Badge';

/** The candidate rating levels the product assigns. */
export const skillLevels = ['Elite', 'Pro', 'Moderate', 'Basic'] as const;
export type SkillLevel = (typeof skillLevels)[number];

const tones: Record<string, BadgeTone | undefined> = { Elite: 'elite', Pro: 'pro', Moderate: 'moderate' };

/**
 * A skill level as a badge: Elite purple, Pro blue, Moderate green, anything else grey. The level is always
 * written out, so the colour never carries the meaning alone.
 */
export function SkillBadge({ level }: { level: string }) {
  return <Badge tone={tones[level] ?? 'other'}>{level}</Badge>;
}
