const express = require('express');
const app = express();

app.get('/learn', (req, res) => {
  // ruleid: javascript.taint-open-redirect
  return res.redirect(req.query.url);
});

app.all('/redirect', (req, res) => {
  let newurl = req.query.newurl;
  // ruleid: javascript.taint-open-redirect
  res.redirect(302, newurl);
});

app.get('/logout/:redirect', (req, res) => {
  // ruleid: javascript.taint-open-redirect
  res.redirect('http://' + req.params.redirect);
  // ok: javascript.taint-open-redirect
  res.redirect('/users/' + req.params.redirect);
  // ok: javascript.taint-open-redirect
  res.redirect(`/docs/${encodeURIComponent(req.params.redirect)}`);
});

app.post('/login', function (req, res) {
  let returnurl = req.body.returnurl;
  if (returnurl == undefined || returnurl == '') {
    returnurl = '/';
  }
  // ruleid: javascript.taint-open-redirect
  res.redirect(returnurl);
});

app.get('/go', function (req, res) {
  // ruleid: javascript.taint-open-redirect
  res.setHeader('Location', req.query.next);
  res.statusCode = 302;
  // ok: javascript.taint-open-redirect
  res.redirect(req.originalUrl + '?retry=1');
  // ok: javascript.taint-open-redirect
  res.redirect('back');
  res.end();
});

router.get('/auth/callback', async (ctx) => {
  // ruleid: javascript.taint-open-redirect
  ctx.redirect(ctx.query.returnTo);
});

async function apexRedirect(ctx, next) {
  // ok: javascript.taint-open-redirect
  ctx.redirect(`https://www.${ctx.headers.host}${ctx.path}`);
  return next();
}
