#pragma once
// libcrypto (OpenSSL 3): the EVP digest interface (Digest's SHA256 is a facade over it), the
// one-shot HMAC and CRYPTO_memcmp (shared heal memory's codes, the fleet audit chain's links)
// and the CSPRNG (their keys).
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
