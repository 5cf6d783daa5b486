import { render, screen } from '@testing-library/react';
import { PreviewCard } from './PreviewCard';

describe('PreviewCard', () => {
  it('is a labelled figure with its title, tag, content and caption', () => {
    render(
      <PreviewCard label="Example: a shortlist" title="Shortlist" tag="FREE" tagTone="success" caption="Rated by AI">
        <p>rows</p>
      </PreviewCard>,
    );
    const figure = screen.getByRole('figure', { name: 'Example: a shortlist' });
    expect(figure).toHaveTextContent('Shortlist');
    expect(screen.getByText('FREE')).toHaveClass('tag', 'success');
    expect(screen.getByText('rows')).toBeInTheDocument();
    expect(screen.getByText('Rated by AI').tagName).toBe('FIGCAPTION');
  });
});
