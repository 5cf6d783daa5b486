import { render, screen } from '@testing-library/react';
import { Section } from './Section';

describe('Section', () => {
  it('is a region named by its h2, with the eyebrow, lead and content', () => {
    render(
      <Section eyebrow="How it works" title="Three steps to your next role" lead="It takes an afternoon.">
        <p>Content</p>
      </Section>,
    );
    const region = screen.getByRole('region', { name: 'Three steps to your next role' });
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Three steps to your next role');
    expect(region).toHaveTextContent('How it works');
    expect(region).toHaveTextContent('It takes an afternoon.');
    expect(region).toHaveTextContent('Content');
  });

  it('gives each section its own heading id, so two sections never label each other', () => {
    render(
      <>
        <Section title="First" />
        <Section title="Second" />
      </>,
    );
    expect(screen.getByRole('region', { name: 'First' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Second' })).toBeInTheDocument();
  });

  it('paints the band the page asks for', () => {
    render(<Section title="For employers" tone="inverse" />);
    expect(screen.getByRole('region', { name: 'For employers' })).toHaveClass('section', 'inverse');
  });

  it('shows a call to action with its small print under the intro', () => {
    render(<Section title="Hiring?" actions={<button type="button">Search</button>} note="No credit card required" />);
    const region = screen.getByRole('region', { name: 'Hiring?' });
    expect(region).toContainElement(screen.getByRole('button', { name: 'Search' }));
    expect(region).toHaveTextContent('No credit card required');
  });
});
