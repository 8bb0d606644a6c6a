const ldap = require('ldapjs');
const express = require('express');
const app = express();
const client = ldap.createClient({ url: 'ldap://127.0.0.1:389' });

const authenticate = (req, res) => {
  const username = req.body.username;
  const options = {
    scope: 'sub',
    filter: '(&(cn=' + username + ')(sn=' + req.body.password + '))',
  };
  // ruleid: javascript.taint-ldap-injection
  client.search('ou=accounts,dc=com', options, (err, result) => res.end());
  // ok: javascript.taint-ldap-injection
  client.search('ou=accounts,dc=com', { scope: 'sub', filter: '(objectClass=person)' }, (err, result) => res.end());
};

app.get('/lookup', function (req, res) {
  // ruleid: javascript.taint-ldap-injection
  client.search('ou=people,dc=example,dc=com', { filter: `(uid=${req.query.user})` }, (err, r) => res.end());
  const count = parseInt(req.query.count, 10);
  // ok: javascript.taint-ldap-injection
  client.search('ou=people,dc=example,dc=com', { filter: '(uid=*)', sizeLimit: count }, (err, r) => res.end());
});
