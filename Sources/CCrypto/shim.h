#pragma once
// libcrypto's EVP digest interface (OpenSSL 3): Support's SHA256 is a facade over it.
#include <openssl/evp.h>
