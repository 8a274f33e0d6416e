#pragma once
// Reading a whole text file, with the usual failures (missing, a directory, unreadable) as an
// InputError naming the path: shared by every reader of the io layer.

#include <string>

#include "coulomb/base/error.h"

namespace coulomb::io {

Expected<std::string> ReadTextFile(const std::string& path);

}  // namespace coulomb::io
