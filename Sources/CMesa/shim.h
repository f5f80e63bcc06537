// Declarations only: the backends load libOSMesa and libEGL at run time (dlopen) and every GL
// function through the backend's proc-address, so nothing here is linked and libGL never is.
#define GL_GLEXT_PROTOTYPES 0
#include <GL/glcorearb.h>
#include <GL/osmesa.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

/* GNU extensions the Swift Glibc module leaves out: a library copy in a link-map namespace of its
   own (each OSMesa copy gets its own llvmpipe screen and rasterizer). */
extern void *dlmopen(long int lmid, const char *file, int mode);
extern int dlinfo(void *handle, int request, void *arg);
