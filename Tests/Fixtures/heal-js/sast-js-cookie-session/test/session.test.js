const test = require('node:test');
const assert = require('node:assert');
const Module = require('node:module');
const path = require('node:path');

// The tests run without node_modules: `cookie-session` resolves to a stand-in that records its options.
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'cookie-session') return path.join(__dirname, 'support', 'cookie-session.js');
  return resolve.call(this, request, ...rest);
};

const { sessionMiddleware, DAY } = require('../session');

test('signs with the given keys under the name sid', () => {
  const middleware = sessionMiddleware(['k1', 'k2']);
  assert.deepStrictEqual(middleware.options.keys, ['k1', 'k2']);
  assert.strictEqual(middleware.options.name, 'sid');
});

test('sessions last a day', () => {
  assert.strictEqual(sessionMiddleware(['k']).options.maxAge, DAY);
});

test('the middleware passes requests on', () => {
  let called = false;
  sessionMiddleware(['k'])({}, {}, () => {
    called = true;
  });
  assert.ok(called);
});
