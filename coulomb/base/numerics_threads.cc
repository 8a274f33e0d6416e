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
  return found;
}

}  // namespace coulomb
