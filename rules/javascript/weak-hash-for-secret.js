const md5 = require('md5');
const sha1 = require('sha1');
const crypto = require('crypto');

function resetPw(req, res, user) {
  // ruleid: javascript.weak-hash-for-secret
  if (req.query.token == md5(req.query.login)) {
    res.render('resetpw');
  }
}

function confirm(req, res, account) {
  // ruleid: javascript.weak-hash-for-secret
  if (req.body.code !== sha1(account.email)) {
    return res.sendStatus(403);
  }
  // ruleid: javascript.weak-hash-for-secret
  if (crypto.createHash('md5').update(account.email).digest('hex') === req.params.resetToken) {
    res.render('reset');
  }
  // ok: javascript.weak-hash-for-secret
  if (req.headers['if-none-match'] === md5(account.avatar)) {
    return res.sendStatus(304);
  }
}

function store(user, password) {
  // ruleid: javascript.weak-hash-for-secret
  user.password = md5(password);
  // ruleid: javascript.weak-hash-for-secret
  user.hash = crypto.createHash('sha1').update(user.password).digest('hex');
  // ok: javascript.weak-hash-for-secret
  user.etag = crypto.createHash('md5').update(user.avatar).digest('hex');
  // ok: javascript.weak-hash-for-secret
  user.fingerprint = crypto.createHash('sha256').update(password).digest('hex');
}

function deleteCode(team, user) {
  // ok: javascript.weak-hash-for-secret
  return crypto.createHash('md5').update(`${team.id}${user.jwtSecret}`).digest('hex').slice(0, 8);
}
