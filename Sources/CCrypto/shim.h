#pragma once
// libcrypto's EVP digest interface (OpenSSL 3): Support's SHA256 is a facade over it; HMAC and
// the random generator key and authenticate shared heal memory.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
