#include <malloc.h>
#include <pthread.h>

/* A GNU extension the Swift Glibc module leaves out: the attributes (stack size) of a running thread. */
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
/* Names a thread (at most 15 bytes), for ps, top and debuggers. */
extern int pthread_setname_np(pthread_t thread, const char *name);
