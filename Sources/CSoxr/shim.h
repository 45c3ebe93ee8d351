// The SoX resampler library: whole-buffer sample-rate conversion (AudioFiles.Resampler).
#include <soxr.h>
