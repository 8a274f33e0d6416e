#include "coulomb/base/process_memory.h"

#include <fstream>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string>

namespace coulomb {
namespace {

long StatusKb(const std::string& key) {
  std::ifstream status("/proc/self/status");
  std::string name;
  long kb = -1;
  while (status >> name) {
    if (name == key + ":") {
      status >> kb;
      return kb;
    }
    status.ignore(1 << 16, '\n');
  }
  return -1;
}

}  // namespace

long ResidentKb() {
  return StatusKb("VmRSS");
}

long PeakResidentKb() {
  return StatusKb("VmHWM");
}

bool ResetPeakResident() {
#ifdef __GLIBC__
  // Freed heap that glibc keeps for reuse would otherwise count in the resident set before the
  // run and hide what the run itself needs (a second run of the same size showed 0 MB).
  malloc_trim(0);
#endif
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace coulomb
