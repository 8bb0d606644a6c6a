const express = require('express');
const session = require('express-session');
const cookieParser = require('cookie-parser');
const app = express();

// ruleid: javascript.express-session-hardcoded-secret
app.use(session({
  secret: 'keyboard cat',
  resave: true,
  saveUninitialized: true,
}));

const cookieSecret = 'f8ed84e8f41e4146403dd4a6bbcea5e4';
// ruleid: javascript.express-session-hardcoded-secret
app.use(cookieParser(cookieSecret));

// ok: javascript.express-session-hardcoded-secret
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));
// ok: javascript.express-session-hardcoded-secret
app.use(cookieParser());
