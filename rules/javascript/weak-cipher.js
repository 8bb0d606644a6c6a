const crypto = require('crypto');

function encrypt(text, key, iv) {
  // ruleid: javascript.weak-cipher
  const legacy = crypto.createCipher('aes-256-cbc', key);
  // ruleid: javascript.weak-cipher
  const des = crypto.createCipheriv('des-ede3-cbc', key, iv);
  // ruleid: javascript.weak-cipher
  const ecb = crypto.createCipheriv('aes-128-ecb', key, null);
  // ok: javascript.weak-cipher
  const gcm = crypto.createCipheriv('aes-256-gcm', key, iv);
  return [legacy, des, ecb, gcm];
}

function decrypt(data, key, iv) {
  // ok: javascript.weak-cipher
  return crypto.createDecipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 });
}
