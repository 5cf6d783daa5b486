import { Component, type ReactNode } from 'react';
import type { RemoteName } from '@nativegtm/design-system';
import { ErrorScreen } from '../screens/ErrorScreen';
import { logRouteError } from './logRouteError';

interface ScreenBoundaryProps {
  /** Whose screen this is, for the log. */
  remote: RemoteName | undefined;
  /** A new value (another location, Try again) gives the screen a fresh start. */
  resetKey: string;
  children: ReactNode;
}

interface ScreenBoundaryState {
  failed: boolean;
  resetKey: string;
}

/** A screen that throws while rendering (a page's bug) becomes the error screen; the layout around it stays. */
export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ScreenBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: ScreenBoundaryProps, state: ScreenBoundaryState) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    logRouteError(error, this.props.remote);
  }

  override render() {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
