import { render, screen } from '@testing-library/react';
import { CardGrid } from './CardGrid';

describe('CardGrid', () => {
  it('makes each child a list item', () => {
    render(
      <CardGrid>
        <p>One</p>
        <p>Two</p>
      </CardGrid>,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['One', 'Two']);
  });

  it.each([
    [4, '4'],
    [8, '4'],
    [5, '3'],
    [3, '3'],
  ])('lays %i cards out in rows of %s on wide screens', (count, columns) => {
    render(
      <CardGrid>
        {Array.from({ length: count }, (_, index) => (
          <p key={index}>Card {index}</p>
        ))}
      </CardGrid>,
    );
    expect(screen.getByRole('list')).toHaveAttribute('data-columns', columns);
  });
});
