const _ = require('lodash');
const express = require('express');
const app = express();

app.post('/message', (req, res) => {
  // ok: javascript.taint-prototype-pollution
  const obj = _.merge({}, req.body, { ipAddress: req.ip });
  // ok: javascript.taint-prototype-pollution
  const copy = Object.assign({}, req.body);
  // ok: javascript.taint-prototype-pollution
  const defaults = _.merge({}, { retries: 3 }, { timeout: 10 });
  res.json({ obj, copy, defaults });
});

app.post('/chat', function (req, res) {
  const message = { icon: '👋' };
  // ok: javascript.taint-prototype-pollution
  _.merge(message, req.body.message, { id: 1, timestamp: Date.now() });
  res.json(message);
});

const merge = (target, source) => {
  for (const key in source) {
    // ok: javascript.taint-prototype-pollution
    if (typeof source[key] === 'object') merge(target[key], source[key]);
    else target[key] = source[key];
  }
};

app.post('/upload', function (req, res) {
  if (req.body.metadata) {
    const metadata = JSON.parse(req.body.metadata);
    const fileData = {};
    // ruleid: javascript.taint-prototype-pollution
    merge(fileData, metadata);
  }
  res.end();
});

app.put('/settings', function (req, res) {
  const settings = {};
  // ruleid: javascript.taint-prototype-pollution
  settings[req.body.section][req.body.key] = req.body.value;
  // ok: javascript.taint-prototype-pollution
  _.set(settings, req.body.path, req.body.value);
  // ok: javascript.taint-prototype-pollution
  _.set(settings, 'display.theme', req.body.value);
  res.json(settings);
});

const { merge: lodashMerge } = require('lodash');
app.post('/prefs', function (req, res) {
  // ok: javascript.taint-prototype-pollution
  lodashMerge(prefs, req.body);
  res.end();
});
