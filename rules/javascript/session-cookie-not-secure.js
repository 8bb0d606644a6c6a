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
