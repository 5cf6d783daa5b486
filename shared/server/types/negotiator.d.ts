// negotiator 1.x ships no types, and @types/negotiator describes 0.6, whose encoding() has no `preferred` option.
// Only what the servers call is declared.
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The best of `available` by the request's Accept-Encoding; ties go to the first in `preferred`. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }

  export = Negotiator;
}
