#include <fftw3.h>
// `fftwf_version` is an incomplete array and does not import into Swift.
static inline const char *kar_fftwf_version(void) { return fftwf_version; }
