// The few commands of W3C classic WebDriver (https://www.w3.org/TR/webdriver2/) the WebKit engine needs, over
// Node's fetch. WebKitGTK's driver speaks nothing else (no BiDi, no DevTools protocol), and a client library would
// bring far more than these dozen calls.

/** The key under which WebDriver returns an element reference. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

class WebDriverError extends Error {
  constructor(command, value) {
    super(`${command}: ${value?.error ?? 'error'}: ${value?.message ?? JSON.stringify(value)}`);
    this.name = 'WebDriverError';
    this.code = value?.error;
  }
}

/**
 * One request to the driver. Every request has a deadline: a driver that cannot reach its browser (no display, say)
 * would otherwise never answer.
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
    throw new WebDriverError(command, { error: error.name, message: error.cause?.message ?? error.message });
  }
  const json = await response.json().catch(() => ({ value: { error: `HTTP ${response.status}` } }));
  if (!response.ok || json.value?.error) throw new WebDriverError(command, json.value);
  return json.value;
}

/** A WebDriver session: the browser window the driver opened for it. */
class WebDriverSession {
  constructor(baseUrl, id, capabilities) {
    this.baseUrl = baseUrl;
    this.id = id;
    /** What the driver says the browser is (browserName, browserVersion, …). */
    this.capabilities = capabilities;
  }

  static async create(baseUrl, capabilities, timeoutMs) {
    const value = await request(
      baseUrl,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      timeoutMs,
    );
    return new WebDriverSession(baseUrl, value.sessionId, value.capabilities ?? {});
  }

  command(method, path = '', body = undefined) {
    return request(this.baseUrl, method, `/session/${this.id}${path}`, body);
  }

  /** Runs `script` (a function body: its arguments are `arguments[0..]`, the last one the callback). */
  executeAsync(script, args = []) {
    return this.command('POST', '/execute/async', { script, args });
  }

  async findAll(selector) {
    const values = await this.command('POST', '/elements', { using: 'css selector', value: selector });
    return values.map((value) => value[ELEMENT]);
  }

  click(element) {
    return this.command('POST', `/element/${element}/click`, {});
  }

  quit() {
    return this.command('DELETE');
  }
}

module.exports = { request, WebDriverSession, WebDriverError };
