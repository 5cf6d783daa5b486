// A request's body, read as it arrives and never waited on for ever: a client that goes away before the body's end
// (its socket closed or reset) or that sends nothing for a while (a stalled upload) ends the body at once with a
// refusal. Node's request does neither by itself: piped on, a request whose socket closes mid-body leaves what it was
// piped into waiting for an end that never comes, and only the server's request timeout (minutes) ends a stall.
const { PassThrough, finished } = require('node:stream');
const { ApiRefusal } = require('./apiRefusal');

/**
 * Runs `read` on the request's body. When the client goes away before the body's end, or sends nothing for `idleMs`,
 * the body fails at once and what `read` then throws is that refusal (400 gone, 408 stalled).
 * @template T
 * @param {import('node:http').IncomingMessage} req
 * @param {number} idleMs
 * @param {(body: import('node:stream').Readable) => Promise<T>} read
 * @returns {Promise<T>}
 */
async function readBody(req, idleMs, read) {
  // `read` gets a stream of its own, not the request: when it refuses (too large, not an archive) and destroys what
  // it reads, that is this stream, not the socket the refusal is answered on.
  const body = new PassThrough();
  /** @type {ApiRefusal | undefined} */
  let refusal;
  /** @param {ApiRefusal} why */
  const fail = (why) => {
    refusal ??= why;
    req.unpipe(body);
    body.destroy(why);
  };
  const stopWatching = finished(req, (error) => {
    if (error) fail(new ApiRefusal(400, 'the request was cut off before the end of its body (its client went away)'));
  });
  // The socket's idle timeout: while a request's body comes in, the server writes nothing on it, so idle means that
  // nothing came. The request listening for it keeps the server from ending the socket itself: the refusal is answered.
  const stalled = () => fail(new ApiRefusal(408, `the request's body sent nothing for ${idleMs} ms`));
  req.setTimeout(idleMs, stalled);
  req.pipe(body);
  try {
    return await read(body);
  } catch (error) {
    throw refusal ?? error;
  } finally {
    stopWatching();
    req.off('timeout', stalled);
    // Back to the server's own (none while a request is under way: its request timeout bounds the whole of it).
    req.setTimeout(0);
    req.unpipe(body);
  }
}

module.exports = { readBody };
