#include "apps/coulomb/peers/process_memory.h"

#include <fstream>
#include <string>

namespace coulomb::peers {
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
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace coulomb::peers
