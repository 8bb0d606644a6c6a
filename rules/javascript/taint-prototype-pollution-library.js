const _ = require('lodash');
const express = require('express');
const app = express();

app.post('/message', (req, res) => {
  // ruleid: javascript.taint-prototype-pollution-library
  const obj = _.merge({}, req.body, { ipAddress: req.ip });
  // ok: javascript.taint-prototype-pollution-library
  const defaults = _.merge({}, { retries: 3 }, { timeout: 10 });
  res.json({ obj, defaults });
});

app.put('/settings', function (req, res) {
  const settings = {};
  // ruleid: javascript.taint-prototype-pollution-library
  _.set(settings, req.body.path, req.body.value);
  // ok: javascript.taint-prototype-pollution-library
  _.set(settings, 'display.theme', req.body.value);
  res.json(settings);
});
