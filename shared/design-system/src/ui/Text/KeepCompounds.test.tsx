import { render } from '@testing-library/react';
import { KeepCompounds } from './KeepCompounds';

describe('KeepCompounds', () => {
  it('wraps hyphenated words so they cannot break at the hyphen, leaving the text as it was', () => {
    const { container } = render(
      <h2>
        <KeepCompounds>Land high-paying AI-native GTM jobs</KeepCompounds>
      </h2>,
    );
    expect(container.textContent).toBe('Land high-paying AI-native GTM jobs');
    expect([...container.querySelectorAll('.compound')].map((span) => span.textContent)).toEqual([
      'high-paying',
      'AI-native',
    ]);
  });

  it('leaves spaced dashes and non-text content alone', () => {
    const { container } = render(
      <p>
        <KeepCompounds>Account Executive - Sales</KeepCompounds>
        <KeepCompounds>
          <em>AI-native</em>
        </KeepCompounds>
      </p>,
    );
    expect(container.querySelectorAll('.compound')).toHaveLength(0);
    expect(container.textContent).toBe('Account Executive - SalesAI-native');
  });
});
