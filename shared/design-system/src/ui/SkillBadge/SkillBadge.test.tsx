import { render, screen } from '@testing-library/react';
import { SkillBadge } from './SkillBadge';

describe('SkillBadge', () => {
  it.each([
    ['Elite', 'elite'],
    ['Pro', 'pro'],
    ['Moderate', 'moderate'],
    ['Basic', 'other'],
    ['Wizard', 'other'],
  ])('shows %s with the %s tone and its name as text', (level, toneClass) => {
    render(<SkillBadge level={level} />);
    const badge = screen.getByText(level);
    expect(badge).toHaveClass('badge', toneClass);
  });
});
