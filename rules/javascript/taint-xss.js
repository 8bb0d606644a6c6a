const express = require('express');
const escapeHtml = require('escape-html');
const app = express();

app.get('/search', (req, res) => {
  const term = req.query.q;
  // ruleid: javascript.taint-xss
  res.send('<h1>Results for ' + term + '</h1>');
  // ok: javascript.taint-xss
  res.send('<h1>Results for ' + escapeHtml(term) + '</h1>');
  // ok: javascript.taint-xss
  res.send({ term });
});

app.get('/echo', function (req, res) {
  // ruleid: javascript.taint-xss
  res.end(`<p>${req.query.msg}</p>`);
});

app.get('/plain', function (req, res) {
  res.set('Content-Type', 'text/plain');
  // ok: javascript.taint-xss
  res.send('You sent ' + req.query.msg);
});

app.get('/count', function (req, res) {
  const n = parseInt(req.query.n, 10);
  // ok: javascript.taint-xss
  res.send('<b>' + n + '</b>');
});

router.get('/hello', async (ctx) => {
  // ruleid: javascript.taint-xss
  ctx.body = '<p>Hello ' + ctx.query.name + '</p>';
  // ok: javascript.taint-xss
  ctx.body = { hello: ctx.query.name };
});

app.get('/missing', (req, res) => {
  // ruleid: javascript.taint-xss
  res.status(404).send(`<p>No page at ${req.query.url}</p>`);
});

honoApp.get('/greet', (c) => {
  // ruleid: javascript.taint-xss
  return c.html(`<h1>Hello ${c.req.query('name')}</h1>`);
});

honoApp.get('/greet-safe', (c) => {
  // ok: javascript.taint-xss
  return c.html(html`<h1>Hello ${c.req.query('name')}</h1>`);
});
