/* Forced into each of musl's math sources that the training workbench's
 * native test program compiles (book/workbench/train/train.cmake): musl's
 * internal header libm.h next to glibc's <math.h>. glibc's header declares
 * its own __sin, __cos, __tan (and long double ones) with other types, so
 * musl's kernels of those names are renamed; musl's "hidden" is its
 * visibility attribute. */
#include <math.h>
#define hidden __attribute__((__visibility__("hidden")))
#define __sin musl_kernel_sin
#define __cos musl_kernel_cos
#define __tan musl_kernel_tan
#define __sinl musl_kernel_sinl
#define __cosl musl_kernel_cosl
#define __tanl musl_kernel_tanl
