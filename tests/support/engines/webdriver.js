// The few commands of W3C classic WebDriver (https://www.w3.org/TR/webdriver2/) the WebKit engine needs, over
// Node's fetch. WebKitGTK's driver speaks nothing else (no BiDi, no DevTools protocol), and a client library would
// bring far more than these dozen calls.

/** The key under which WebDriver returns an element reference. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/**
 * What the driver answers a failed command with (https://www.w3.org/TR/webdriver2/#errors).
 * @typedef {{ error?: string, message?: string }} ErrorAnswer
 */

/**
 * What the driver says the browser is (browserName, browserVersion, …).
 * @typedef {{ browserName?: string, browserVersion?: string, [name: string]: unknown }} Capabilities
 */

class WebDriverError extends Error {
  /**
   * @param {string} command
   * @param {ErrorAnswer | null | undefined} value
   */
  constructor(command, value) {
    super(`${command}: ${value?.error ?? 'error'}: ${value?.message ?? JSON.stringify(value)}`);
    this.name = 'WebDriverError';
    this.code = value?.error;
  }
}

/**
 * One request to the driver. Every request has a deadline: a driver that cannot reach its browser (no display, say)
 * would otherwise never answer.
 * @param {string} baseUrl
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]  sent as JSON
 * @param {number} [timeoutMs]
 * @returns {Promise<unknown>} the answer's value, whose shape depends on the command
 */
async function request(baseUrl, method, path, body, timeoutMs = 60_000) {
  const command = `${method} ${path}`;
  let response;
  try {
    response = await fetch(baseUrl + path, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // A driver that is gone or does not answer: say which command, not only "fetch failed".
    const reason = /** @type {Error & { cause?: Error }} */ (error);
    throw new WebDriverError(command, { error: reason.name, message: reason.cause?.message ?? reason.message });
  }
  /** @type {{ value?: unknown }} */
  const json = await response.json().catch(() => ({ value: { error: `HTTP ${response.status}` } }));
  // Any command's answer may be an error instead.
  const failure = /** @type {ErrorAnswer | null | undefined} */ (json.value);
  if (!response.ok || failure?.error) throw new WebDriverError(command, failure);
  return json.value;
}

/** A WebDriver session: the browser window the driver opened for it. */
class WebDriverSession {
  /**
   * @param {string} baseUrl
   * @param {string} id
   * @param {Capabilities} capabilities
   */
  constructor(baseUrl, id, capabilities) {
    this.baseUrl = baseUrl;
    this.id = id;
    /** What the driver says the browser is (browserName, browserVersion, …). */
    this.capabilities = capabilities;
  }

  /**
   * @param {string} baseUrl
   * @param {Record<string, unknown>} capabilities  what the browser must be and how to start it
   * @param {number} timeoutMs
   */
  static async create(baseUrl, capabilities, timeoutMs) {
    const value = /** @type {{ sessionId: string, capabilities?: Capabilities }} */ (
      await request(baseUrl, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } }, timeoutMs)
    );
    return new WebDriverSession(baseUrl, value.sessionId, value.capabilities ?? {});
  }

  /**
   * @param {string} method
   * @param {string} [path]  after the session's own
   * @param {unknown} [body]
   */
  command(method, path = '', body = undefined) {
    return request(this.baseUrl, method, `/session/${this.id}${path}`, body);
  }

  /**
   * Runs `script` (a function body: its arguments are `arguments[0..]`, the last one the callback).
   * @param {string} script
   * @param {unknown[]} [args]
   */
  executeAsync(script, args = []) {
    return this.command('POST', '/execute/async', { script, args });
  }

  /**
   * References to the elements matching a CSS selector, in document order.
   * @param {string} selector
   */
  async findAll(selector) {
    const values = /** @type {Record<typeof ELEMENT, string>[]} */ (
      await this.command('POST', '/elements', { using: 'css selector', value: selector })
    );
    return values.map((value) => value[ELEMENT]);
  }

  /** @param {string} element  a reference from findAll */
  click(element) {
    return this.command('POST', `/element/${element}/click`, {});
  }

  quit() {
    return this.command('DELETE');
  }
}

module.exports = { request, WebDriverSession };
