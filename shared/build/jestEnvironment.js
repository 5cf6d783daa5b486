// jsdom lacks the Fetch API classes react-router's data routers use (Request for every navigation). Node has
// them; they are handed in together with Node's AbortController, because Node's Request only accepts its own
// AbortSignal.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetchEnvironment extends TestEnvironment {
  /**
   * @param {ConstructorParameters<typeof TestEnvironment>[0]} config
   * @param {ConstructorParameters<typeof TestEnvironment>[1]} context
   */
  constructor(config, context) {
    super(config, context);
    const { Request, Response, Headers, AbortController, AbortSignal, TextEncoder, TextDecoder } = globalThis;
    Object.assign(this.global, { Request, Response, Headers, AbortController, AbortSignal, TextEncoder, TextDecoder });
  }
}

module.exports = JsdomWithFetchEnvironment;
