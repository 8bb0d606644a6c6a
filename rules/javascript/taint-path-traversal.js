const jwt = require('jsonwebtoken');
const fs = require('fs');
const path = require('path');
const express = require('express');
const app = express();
const UPLOADS = path.join(__dirname, 'uploads');

app.post('/home', (req, res) => {
  const filename = req.body.filename;
  // ruleid: javascript.taint-path-traversal
  fs.readFile(filename, 'utf8', (err, data) => res.render('index', { data }));
  // ok: javascript.taint-path-traversal
  fs.readFile(path.join(UPLOADS, path.basename(filename)), 'utf8', (err, data) => res.render('index', { data }));
  // ok: javascript.taint-path-traversal
  fs.readFile(path.join(UPLOADS, 'index.txt'), 'utf8', (err, data) => res.render('index', { data }));
});

app.post('/fetch', function (req, res) {
  const file = path.resolve(process.cwd() + '/public/uploads/' + req.body.filename);
  // ruleid: javascript.taint-path-traversal
  res.download(file);
});

app.get('/files/:name', function (req, res) {
  // ruleid: javascript.taint-path-traversal
  res.sendFile(path.join(UPLOADS, req.params.name));
  // ok: javascript.taint-path-traversal
  res.sendFile(req.params.name, { root: UPLOADS });
});

app.post('/upload', function (req, res) {
  const upload = req.files.upload;
  // ruleid: javascript.taint-path-traversal
  upload.mv(UPLOADS + '/' + upload.name, (err) => res.end());
});

app.post('/account', function (req, res) {
  const profile = req.body;
  // ruleid: javascript.taint-path-traversal
  return res.render('account.hbs', profile);
});

app.get('/page', function (req, res) {
  // ok: javascript.taint-path-traversal
  res.render('page', { title: req.query.title });
});

async function save(ctx) {
  // ruleid: javascript.taint-path-traversal
  await fs.promises.writeFile('/srv/data/' + ctx.request.body.name, ctx.request.body.content);
}

app.post('/files', function (req, res) {
  const claims = jwt.verify(req.headers.authorization.split(' ')[1], process.env.JWT_SECRET);
  // ok: javascript.taint-path-traversal
  fs.readdir('/srv/uploads/' + claims.user, (err, files) => res.json(files));
});

app.get('/ssti', (req, res) => {
  // ok: javascript.taint-path-traversal
  const html = ejs.render('<p>' + req.query.name + '</p>', {});
  res.send(html);
});

socket.on('getPushExample', async (language, callback) => {
  if (!/^[a-z-]+$/.test(language)) {
    return callback({ ok: false });
  }
  // ok: javascript.taint-path-traversal
  callback({ ok: true, code: await fs.promises.readFile(path.join('./extra/push-examples', language, 'index.js'), 'utf8') });
});

async function serve(req, res) {
  // ok: javascript.taint-path-traversal
  const { data } = await supabase.storage.from('vault').download(req.query.path);
  res.send(data);
}

const LANGUAGES = ['en', 'de', 'fr'];
router.get('/locales/:lng.json', async (ctx) => {
  const { lng } = ctx.params;
  if (!LANGUAGES.includes(lng)) {
    ctx.status = 404;
    return;
  }
  // ok: javascript.taint-path-traversal
  await fs.promises.readFile(path.join('locales', lng, 'translation.json'));
});

app.post('/lfi3', (req, res) => {
  let filename = req.body.filename;
  if (!filename.includes('../')) {
    // ruleid: javascript.taint-path-traversal
    fs.readFile(decodeURIComponent(filename), 'utf8', (err, data) => res.send(data));
  }
});

// Node's http server: the listener's first parameter is the request, whatever its name
const FileSystem = require('fs');
const HTTP = require('http');
HTTP.createServer((Request, Response) => {
  // ruleid: javascript.taint-path-traversal
  FileSystem.readFile(process.cwd() + Request.url, (error, data) => Response.end(data));
  // ok: javascript.taint-path-traversal
  FileSystem.readFile(process.cwd() + '/index.html', (error, data) => Response.end(data));
}).listen(8000);

// A prefix check of a normalised path (path.join/resolve/normalize remove `..`) confines it
const nodePath = require('path');
HTTP.createServer((Request, Response) => {
  const target = nodePath.join(process.cwd(), Request.url);
  if (target.indexOf(process.cwd()) !== 0) {
    Response.end();
    return;
  }
  // ok: javascript.taint-path-traversal
  FileSystem.readFile(target, (error, data) => Response.end(data));
  const other = nodePath.resolve(process.cwd(), Request.url);
  // ruleid: javascript.taint-path-traversal
  FileSystem.readFile(other, (error, data) => Response.end(data));
  if (other.startsWith(process.cwd() + nodePath.sep)) {
    // ok: javascript.taint-path-traversal
    FileSystem.readFile(other, (error, data) => Response.end(data));
  }
});

// koa-send: a `root` confines the path; without one the client's path is opened as is
const send = require('koa-send');
router.get('/assets/*', async (ctx) => {
  // ok: javascript.taint-path-traversal
  await send(ctx, ctx.path, { root: __dirname + '/public' });
  // ruleid: javascript.taint-path-traversal
  await send(ctx, ctx.path);
});
