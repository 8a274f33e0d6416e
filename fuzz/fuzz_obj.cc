// OBJ meshes (ParseObj): vertices and faces as read, or an error naming the line.
#include "coulomb/io/obj_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto mesh = coulomb::io::ParseObj(coulomb::fuzz::AsText(data, size), "fuzz.obj");
  if (!mesh.ok()) return 0;
  for (const auto& v : mesh.value().vertices)
    coulomb::fuzz::RequireFinite(v, "OBJ vertex not finite");
  for (const auto& f : mesh.value().triangles)
    for (int i = 0; i < 3; ++i)
      if (f[i] < 0 || f[i] >= static_cast<int>(mesh.value().vertices.size()))
        coulomb::fuzz::Broken("OBJ face index out of range");
  return 0;
}
