import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface StaticOptions {
  root: string;
  spa?: boolean;
  cors?: boolean;
  files?: Record<string, string>;
}
export interface StaticHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Stops the document composer's background work (a server made by createStaticServer calls it on close). */
  close(): void;
}
export function createStaticHandler(options: StaticOptions): StaticHandler;
export function createStaticServer(options: StaticOptions): Server;
export function listen(server: Server, port: number, label: string, host?: string): Promise<Server>;
export function close(server: Server): Promise<void>;
export class PortInUseError extends Error {
  port: number;
}
export const HASHED_ASSET: RegExp;
