const session = require('express-session');

// ruleid: javascript.cookie-httponly-disabled
app.use(session({ secret: process.env.SECRET, cookie: { httpOnly: false, secure: true } }));

function login(req, res, token) {
  // ruleid: javascript.cookie-httponly-disabled
  // nofix: javascript.cookie-httponly-disabled (a parameter: nothing says it is Express's response)
  res.cookie('auth_token', token, { httpOnly: false });
  // ok: javascript.cookie-httponly-disabled
  res.cookie('auth_token', token, { httpOnly: true, secure: true });
  // ok: javascript.cookie-httponly-disabled
  res.cookie('theme', 'dark', { httpOnly: false });
}

const cookieSession = require('cookie-session');
// ruleid: javascript.cookie-httponly-disabled
app.use(cookieSession({ name: 'sess', keys: [process.env.KEY], httpOnly: false }));
