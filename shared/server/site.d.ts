export interface Deployable {
  name: string;
  dir: string;
  port: number;
  role: 'host' | 'remote';
  /** The Module Federation name, also the remote's key in remotes.json. */
  remote?: string;
  /** The page route a remote renders. */
  route?: string;
}
export const deployables: Deployable[];
export const repoRoot: string;
export function buildMarker(deployable: Deployable): string;
