// Mesh files read through Assimp (ReadMeshFile: STL, COLLADA …), in its child process. Assimp
// reads files, not buffers, so each input goes through one scratch file of this process, named
// with the format's extension (COULOMB_FUZZ_MESH_EXTENSION) as a robot description names it.
#include <unistd.h>

#include <fstream>

#include "coulomb/io/mesh_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path =
      "/tmp/coulomb_fuzz_mesh_" + std::to_string(getpid()) + "." + COULOMB_FUZZ_MESH_EXTENSION;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const auto mesh = coulomb::io::ReadMeshFile(path);
  if (!mesh.ok()) return 0;
  if (mesh.value().triangles.empty()) coulomb::fuzz::Broken("mesh accepted without triangles");
  for (const auto& v : mesh.value().vertices) {
    coulomb::fuzz::RequireFinite(v, "mesh vertex not finite");
  }
  for (const auto& f : mesh.value().triangles) {
    for (int i = 0; i < 3; ++i) {
      if (f[i] < 0 || f[i] >= static_cast<int>(mesh.value().vertices.size()))
        coulomb::fuzz::Broken("mesh triangle index out of range");
    }
  }
  return 0;
}
