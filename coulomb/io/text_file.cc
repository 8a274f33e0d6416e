#include "coulomb/io/text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace coulomb::io {

Expected<std::string> ReadTextFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return InputError{path, 0, "", "is a directory, not a file"};
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    return InputError{path, 0, "", ec ? ec.message() : "no such file (or not a regular file)"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return InputError{path, 0, "", "cannot be opened for reading"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return InputError{path, 0, "", "read error"};
  return buffer.str();
}

}  // namespace coulomb::io
