import { render } from '@testing-library/react';
import { Icon, iconNames } from './Icon';

describe('Icon', () => {
  it.each(iconNames)('draws %s as a decorative, unfocusable graphic', (name) => {
    const { container } = render(<Icon name={name} />);
    const svg = container.querySelector('svg');
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('focusable', 'false');
    expect(svg?.childElementCount).toBeGreaterThan(0);
  });
});
