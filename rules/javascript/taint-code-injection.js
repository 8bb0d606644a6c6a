const vm = require('vm');
const mathjs = require('mathjs');
const express = require('express');
const app = express();

app.post('/contributions', (req, res) => {
  // ruleid: javascript.taint-code-injection
  const preTax = eval(req.body.preTax);
  // ok: javascript.taint-code-injection
  const afterTax = parseInt(req.body.afterTax, 10);
  // ok: javascript.taint-code-injection
  const fixed = eval('1 + 2');
  res.json({ preTax, afterTax, fixed });
});

app.get('/calc', function (req, res) {
  // ruleid: javascript.taint-code-injection
  res.render('calc', { output: mathjs.eval(req.query.eqn) });
});

app.post('/template', (req, res) => {
  const body = 'return `' + req.body.tpl + '`';
  // ruleid: javascript.taint-code-injection
  const render = new Function('data', body);
  // ruleid: javascript.taint-code-injection
  setTimeout('refresh("' + req.body.id + '")', 100);
  // ok: javascript.taint-code-injection
  setTimeout(() => refresh(req.body.id), 100);
  // ruleid: javascript.taint-code-injection
  const out = vm.runInNewContext(req.body.expr, { Math });
  res.send(String(render(out)));
});

app.get('/plugin', (req, res) => {
  // ruleid: javascript.taint-code-injection
  const plugin = require('./plugins/' + req.query.name);
  // ok: javascript.taint-code-injection
  const known = require('./plugins/default');
  res.json(plugin.info(known));
});

// Code the program writes itself is not the client's.
function compile(fields) {
  // ok: javascript.taint-code-injection
  return new Function('row', 'return [' + fields.map((f) => JSON.stringify(f)).join(',') + ']');
}

// A package's exported function turning its argument into code (what its callers pass)
function deserialize(str) {
  // ruleid: javascript.taint-code-injection
  return (new Function('return ' + str))();
}
module.exports = deserialize;

function internalHelper(str) {
  // ok: javascript.taint-code-injection
  return (new Function('return ' + str))();
}

// Issue 76: the same sinks, however they are spelled
app.get('/spelled', async (req, res) => {
  const code = req.query.code;
  // ruleid: javascript.taint-code-injection
  (0, eval)(code);
  // ruleid: javascript.taint-code-injection
  globalThis.eval(code);
  const run = eval;
  // ruleid: javascript.taint-code-injection
  run(code);
  // ruleid: javascript.taint-code-injection
  require('vm').runInThisContext(code);
  // ruleid: javascript.taint-code-injection
  vm['runInNewContext'](code);
  // ruleid: javascript.taint-code-injection
  [code].forEach(eval);
  // ok: javascript.taint-code-injection
  ['1 + 1'].forEach(eval);
  // ruleid: javascript.taint-code-injection
  Reflect.apply(eval, null, [code]);
  // ruleid: javascript.taint-code-injection
  (await import('node:vm')).runInThisContext(code);
  // ok: javascript.taint-code-injection
  if (['1 + 1', '2 * 2'].includes(code)) eval(code);
  // ruleid: javascript.taint-code-injection
  if ([code].includes(code)) eval(code);
  res.end();
});
