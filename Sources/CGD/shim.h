#include <gd.h>
// gdImageSX/SY are macros.
static inline int kar_gd_width(gdImagePtr image) { return gdImageSX(image); }
static inline int kar_gd_height(gdImagePtr image) { return gdImageSY(image); }
