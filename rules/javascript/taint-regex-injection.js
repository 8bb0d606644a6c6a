const express = require('express');
const _ = require('lodash');
const app = express();

app.get('/filter', (req, res) => {
  // ruleid: javascript.taint-regex-injection
  const re = new RegExp(req.query.pattern, 'i');
  // ok: javascript.taint-regex-injection
  const escaped = new RegExp(_.escapeRegExp(req.query.pattern), 'i');
  // ok: javascript.taint-regex-injection
  const fixed = new RegExp('^[a-z]+$');
  res.json([re.test('x'), escaped.test('x'), fixed.test('x')]);
});

app.post('/search', function (req, res) {
  const term = req.body.term;
  // ruleid: javascript.taint-regex-injection
  const matcher = RegExp('^' + term);
  res.json(items.filter((i) => matcher.test(i.name)));
});
