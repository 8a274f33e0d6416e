#include "coulomb/base/error.h"

namespace coulomb {

std::string InputError::ToString() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) {
      out.push_back(':');
      out.append(std::to_string(line));
    }
    out.append(": ");
  }
  if (!field.empty()) {
    out.append(field);
    out.append(": ");
  }
  out.append(reason);
  return out;
}

}  // namespace coulomb
