const express = require('express');
const axios = require('axios');
const needle = require('needle');
const request = require('request');
const app = express();

app.get('/research', (req, res) => {
  const url = req.query.url + req.query.symbol;
  // ruleid: javascript.taint-ssrf
  return needle.get(url, (error, newResponse, body) => res.send(body));
});

app.post('/check', (req, res) => {
  const url = req.body.url;
  // ruleid: javascript.taint-ssrf
  request.head(url, { timeout: 2000 }, (error) => res.json({ ok: !error }));
});

app.get('/proxy', async (req, res) => {
  // ruleid: javascript.taint-ssrf
  const r = await fetch(req.query.target);
  // ok: javascript.taint-ssrf
  const s = await fetch('https://api.example.com/items?q=' + encodeURIComponent(req.query.q));
  // ok: javascript.taint-ssrf
  const t = await axios.get('https://api.example.com/status');
  // ruleid: javascript.taint-ssrf
  const u = await axios.post(req.body.webhook, { event: 'ping' });
  res.json({ r: r.status, s: s.status, t: t.status, u: u.status });
});

// A URL from the server's own configuration is not the client's.
async function refresh(config) {
  // ok: javascript.taint-ssrf
  return axios.get(config.upstream);
}

app.get('/user/:id', async (req, res) => {
  // ok: javascript.taint-ssrf
  const r = await axios.get('https://api.example.com/users/' + req.params.id);
  res.json(r.data);
});

app.get('/ticket', (req, res) => {
  const file = { url: `http://localhost:${process.env.PORT}/ticket?name=${req.query.name}` };
  // ok: javascript.taint-ssrf
  htmlToPdf.generatePdf(file, { format: 'A4' }).then((pdf) => res.send(pdf));
  // ruleid: javascript.taint-ssrf
  htmlToPdf.generatePdf({ url: req.query.page }, { format: 'A4' }).then((pdf) => res.send(pdf));
});

export async function getServerSideProps(ctx) {
  // ok: javascript.taint-ssrf
  const response = await axios.get(`http://${process.env.HOST || 'localhost'}:${process.env.PORT || 5055}/api/v1/movie/${ctx.query.movieId}`);
  return { props: { movie: response.data } };
}
