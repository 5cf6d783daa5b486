export interface Deployable {
  name: string;
  dir: string;
  port: number;
  role: 'host' | 'remote';
}
export const deployables: Deployable[];
export const repoRoot: string;
export function buildMarker(deployable: Deployable): string;
