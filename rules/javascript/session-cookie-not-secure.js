const express = require('express');
const session = require('express-session');
const app = express();

// ruleid: javascript.session-cookie-not-secure
app.use(session({
  secret: process.env.SECRET,
  saveUninitialized: true,
  resave: true,
}));

// ruleid: javascript.session-cookie-not-secure
app.use(session({ secret: process.env.SECRET, cookie: { secure: false, maxAge: 99999999999 } }));

// ruleid: javascript.session-cookie-not-secure
app.use(session({ secret: process.env.SECRET, name: 'connect.sid', cookie: { path: '/' } }));

// ok: javascript.session-cookie-not-secure
app.use(session({ secret: process.env.SECRET, cookie: { secure: true, httpOnly: true } }));

// ok: javascript.session-cookie-not-secure
app.use(session({ secret: process.env.SECRET, cookie: { secure: process.env.NODE_ENV === 'production' } }));

// ruleid: javascript.session-cookie-not-secure
app.use(session({ secret: process.env.SECRET, cookie: { httpOnly: true, secure: false, sameSite: 'lax' } }));

const cookieSession = require('cookie-session');

// ruleid: javascript.session-cookie-not-secure
app.use(cookieSession({ name: 'sess', keys: [process.env.KEY] }));

// ruleid: javascript.session-cookie-not-secure
app.use(cookieSession({ name: 'sess', secure: false, keys: [process.env.KEY] }));

// ok: javascript.session-cookie-not-secure
app.use(cookieSession({ name: 'sess', secure: true, keys: [process.env.KEY] }));

function mount(server, expressSession) {
  // The function is a parameter here: nothing says it is express-session.
  // ruleid: javascript.session-cookie-not-secure
  // nofix: javascript.session-cookie-not-secure (the callee's origin is unknown)
  server.use(expressSession({ secret: process.env.SECRET }));
}

// Under another name, by its import.
const makeSession = require('express-session');
// ruleid: javascript.session-cookie-not-secure
app.use(makeSession({ secret: process.env.SECRET, resave: false }));
// ok: javascript.session-cookie-not-secure
app.use(makeSession({ secret: process.env.SECRET, cookie: { secure: true } }));
