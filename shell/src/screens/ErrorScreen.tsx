import { Button, ButtonLink, useDocumentTitle } from '@nativegtm/design-system';
import { useReportScreenRendered } from '../a11y/screenRendered';
import { useNavigationStatus } from '../routing/navigationContext';
import { StatusLayout, statusStyles } from './StatusLayout';

/**
 * The route error screen: a remote that is down, slow or broken, or a page that failed while rendering. Visitors get
 * a plain explanation and two ways on; the technical detail goes to the console (logged where the error arose).
 */
export function ErrorScreen() {
  const { loading: retrying, retry } = useNavigationStatus();
  useDocumentTitle('Something went wrong');
  useReportScreenRendered();

  return (
    <StatusLayout
      eyebrow={
        <span className={statusStyles.icon} aria-hidden="true">
          !
        </span>
      }
      title="Unexpected Application Error!"
      actions={
        <>
          <Button size="lg" onClick={retry} disabled={retrying} aria-busy={retrying}>
            {retrying ? 'Trying again…' : 'Try again'}
          </Button>
          <ButtonLink to="/" size="lg" variant="outline">
            Back to home
          </ButtonLink>
        </>
      }
    >
      <p>
        This part of the site did not load. It is usually temporary: try again in a moment, or head back to the home
        page.
      </p>
    </StatusLayout>
  );
}
