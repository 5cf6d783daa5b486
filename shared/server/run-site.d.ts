import type { Server } from 'node:http';
import type { Deployable } from './site';

export interface RunningSite {
  servers: { deployable: Deployable; port: number; server: Server }[];
  stop(): Promise<void[]>;
}
export function startSite(
  deployables: Deployable[],
  options?: { ports?: Record<string, number>; roots?: Record<string, string>; remotesFile?: string },
): Promise<RunningSite>;
