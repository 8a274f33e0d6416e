#include "coulomb/base/numerics_threads.h"

#include <dlfcn.h>

#include <initializer_list>

namespace coulomb {

bool UseSingleThreadedNumerics() {
  bool found = false;
  // Not declared by any standard header: OpenBLAS's and libgomp's own entry points.
  using SetThreads = void (*)(int);
  for (const char* name : {"openblas_set_num_threads", "omp_set_num_threads"}) {
    if (void* symbol = dlsym(RTLD_DEFAULT, name)) {
      reinterpret_cast<SetThreads>(symbol)(1);
      found = true;
    }
  }
  // CHOLMOD's supernodal factorization opens its parallel loops with a num_threads clause fixed
  // at build time (four in Debian's), which omp_set_num_threads does not override: a 500-body
  // SAP pile on one thread still ran three OpenMP workers, a tenth of its samples in libgomp and
  // the kernel waking them. With no active level allowed, every parallel region runs on the
  // thread that opens it, whatever its clause asks.
  if (void* symbol = dlsym(RTLD_DEFAULT, "omp_set_max_active_levels")) {
    reinterpret_cast<SetThreads>(symbol)(0);
    found = true;
  }
  return found;
}

}  // namespace coulomb
