#include <pulse/pulseaudio.h>
#include <pulse/error.h>
#include <pulse/thread-mainloop.h>
