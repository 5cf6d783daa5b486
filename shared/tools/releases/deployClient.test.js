/** @jest-environment node */
// The release commands' client of the deploy API (`--to`): the API's refusals end the command as they would where the
// store is, a gate that could not judge as one (exit 3), anything else as a refusal (exit 1).
const http = require('node:http');
const { Undecided } = require('@nativegtm/server/commandLine');
const { DeployRefusal, deployClient } = require('./deployClient');

const ID = '0123456789abcdef';
const env = { NATIVEGTM_DEPLOY_TOKEN: 'ngd_test' };
/** @type {import('@nativegtm/store/operations').Gate} */
const gate = async () => {
  throw new Error('the deploy API runs the gate');
};

/** @type {http.Server} */
let server;
/** @type {{ status: number, body: unknown }} */
let answer;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const client = () =>
  deployClient('jobs', `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`, {
    env,
  });

it("ends on the API's gate that could not judge as the command does on its own (exit 3)", async () => {
  const error = 'the gate could not judge: hydration: the browser ran out of time (twice)';
  answer = { status: 503, body: { error, undecided: true } };
  const promoting = client().promote(ID, { gate });
  await expect(promoting).rejects.toThrow(Undecided);
  await expect(promoting).rejects.toThrow(error);
});

it('ends on any other refusal, 503 too, as a refusal (exit 1)', async () => {
  answer = { status: 503, body: { error: 'the store cannot be reached; nothing was changed' } };
  const promoting = client().promote(ID, { gate });
  await expect(promoting).rejects.toThrow(DeployRefusal);
  await expect(promoting).rejects.toThrow('the store cannot be reached; nothing was changed');
});
