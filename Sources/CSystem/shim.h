#include <malloc.h>
#include <pthread.h>

/* A GNU extension the Swift Glibc module leaves out: the attributes (stack size) of a running thread. */
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
