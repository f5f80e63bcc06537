// Declarations only: the backends load libOSMesa and libEGL at run time (dlopen) and every GL
// function through the backend's proc-address, so nothing here is linked and libGL never is.
#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>
#include <GL/osmesa.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
