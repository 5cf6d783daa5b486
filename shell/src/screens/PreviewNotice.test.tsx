import { render, screen } from '@testing-library/react';
import { PreviewNotice } from './PreviewNotice';

describe('PreviewNotice', () => {
  it('names the previewed remote and release, and links to the end of the preview', () => {
    render(<PreviewNotice cookies="other=1; nativegtm_preview_notice=jobs.0123456789abcdef" />);
    const notice = screen.getByRole('complementary', { name: 'Preview' });
    expect(notice).toHaveTextContent('Preview: jobs release 01234567');
    expect(screen.getByRole('link', { name: 'End preview' })).toHaveAttribute('href', '/_preview/end');
  });

  it('says FAILED when the release failed its gate', () => {
    render(<PreviewNotice cookies="nativegtm_preview_notice=jobs.0123456789abcdef.failed" />);
    expect(screen.getByRole('complementary', { name: 'Preview' })).toHaveTextContent(
      'Preview: jobs release 01234567 FAILED the gate',
    );
  });

  it('says nothing of the gate for a release that did not fail it', () => {
    render(<PreviewNotice cookies="nativegtm_preview_notice=jobs.0123456789abcdef" />);
    expect(screen.getByRole('complementary', { name: 'Preview' })).not.toHaveTextContent('FAILED');
  });

  it.each([
    [''],
    ['nativegtm_preview_notice='],
    ['nativegtm_preview_notice=nobody.0123456789abcdef'],
    ['nativegtm_preview_notice=jobs.<script>'],
    ['nativegtm_preview_notice=jobs.0123456789abcdef.passed'],
    ['nativegtm_preview_notice=jobs.failed'],
  ])('shows nothing for %j', (cookies) => {
    const { container } = render(<PreviewNotice cookies={cookies} />);
    expect(container).toBeEmptyDOMElement();
  });
});
