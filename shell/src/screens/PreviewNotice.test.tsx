import { render, screen } from '@testing-library/react';
import { PreviewNotice } from './PreviewNotice';

describe('PreviewNotice', () => {
  it('names the previewed remote and release, and links to the end of the preview', () => {
    render(<PreviewNotice cookies="other=1; nativegtm_preview_notice=jobs.0123456789abcdef" />);
    const notice = screen.getByRole('complementary', { name: 'Preview' });
    expect(notice).toHaveTextContent('Preview: jobs release 01234567');
    expect(screen.getByRole('link', { name: 'End preview' })).toHaveAttribute('href', '/_preview/end');
  });

  it.each([
    [''],
    ['nativegtm_preview_notice='],
    ['nativegtm_preview_notice=nobody.0123456789abcdef'],
    ['nativegtm_preview_notice=jobs.<script>'],
  ])('shows nothing for %j', (cookies) => {
    const { container } = render(<PreviewNotice cookies={cookies} />);
    expect(container).toBeEmptyDOMElement();
  });
});
