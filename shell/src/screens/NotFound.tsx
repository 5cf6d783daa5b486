import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { ButtonLink, useDocumentTitle } from '@nativegtm/design-system';
import { useReportScreenRendered } from '../a11y/screenRendered';
import { StatusLayout, statusStyles } from './StatusLayout';

/** Any path no page owns. The path is logged so broken links can be found in the console and in monitoring. */
export function NotFound() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  useReportScreenRendered();
  useEffect(() => {
    console.error(`404: no page at ${pathname}`);
  }, [pathname]);

  return (
    <StatusLayout
      eyebrow={<p className={statusStyles.eyebrow}>404</p>}
      title="Oops! Page not found"
      actions={
        <ButtonLink to="/" size="lg">
          Return to Home
        </ButtonLink>
      }
    >
      <p>The page you are looking for does not exist or has moved.</p>
    </StatusLayout>
  );
}
