const crypto = require('crypto');

function createReset(user) {
  // ruleid: javascript.insecure-random-secret
  const resetToken = Math.random().toString(36).slice(2);
  // ruleid: javascript.insecure-random-secret
  user.tempPassword = Math.floor(Math.random() * 1e8).toString();
  // ok: javascript.insecure-random-secret
  const token = crypto.randomBytes(32).toString('hex');
  // ok: javascript.insecure-random-secret
  const jitter = Math.random() * 1000;
  return { resetToken, token, jitter };
}

// ruleid: javascript.insecure-random-secret
function generateApiToken() {
  return Math.random().toString(36).substring(2) + Date.now().toString(36);
}

// ok: javascript.insecure-random-secret
function randomColor() {
  return '#' + Math.floor(Math.random() * 0xffffff).toString(16);
}

// ok: javascript.insecure-random-secret
const PasswordGenerator = {
  length: 12,
  next: function () {
    return Math.floor(Math.random() * 256);
  },
};
