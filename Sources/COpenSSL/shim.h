// OpenSSL's X.509 API, for making and checking the room's self-signed certificate.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
// Macros that do not import into Swift.
static inline long kar_bio_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
static inline int kar_general_names_count(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
static inline const GENERAL_NAME *kar_general_name(const GENERAL_NAMES *names, int i) { return sk_GENERAL_NAME_value(names, i); }
static inline void kar_general_names_free(GENERAL_NAMES *names) { GENERAL_NAMES_free(names); }
