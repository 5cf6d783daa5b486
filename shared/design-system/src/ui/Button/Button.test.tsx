import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { Button, ButtonLink } from './Button';

describe('Button', () => {
  it('is a real button that defaults to type="button" so it never submits a form by accident', async () => {
    const onClick = jest.fn();
    render(<Button onClick={onClick}>Try again</Button>);
    const button = screen.getByRole('button', { name: 'Try again' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});

describe('ButtonLink', () => {
  it('links to a site path through the router', () => {
    render(
      <MemoryRouter>
        <ButtonLink to="/coming-soon">Apply Now</ButtonLink>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Apply Now' });
    expect(link).toHaveAttribute('href', '/coming-soon');
    expect(link).not.toHaveAttribute('target');
  });

  it('opens outside addresses in a new tab without giving the new page a handle on ours', () => {
    render(
      <ButtonLink to="https://forms.example/early" newTab>
        Get Early Access
      </ButtonLink>,
    );
    const link = screen.getByRole('link', { name: 'Get Early Access (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://forms.example/early');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('renders mailto: links as plain links in the same tab', () => {
    render(<ButtonLink to="mailto:someone@example.com">Contact us</ButtonLink>);
    const link = screen.getByRole('link', { name: 'Contact us' });
    expect(link).toHaveAttribute('href', 'mailto:someone@example.com');
    expect(link).not.toHaveAttribute('target');
  });
});
