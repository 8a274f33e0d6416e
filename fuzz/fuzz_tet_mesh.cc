// Tetrahedral meshes (ParseTetMesh) in the format COULOMB_FUZZ_TET_FORMAT names ("msh" for Gmsh,
// "vtk" for legacy VTK, "mesh" for Medit): one source, three targets, so each is seeded with real
// files of its format. A mesh the reader accepts is one the FEM model can take: indices in range,
// coordinates finite, every element positively oriented with a volume.
#include "coulomb/fem/tet_mesh.h"
#include "coulomb/io/tet_mesh_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file =
      coulomb::io::ParseTetMesh(coulomb::fuzz::AsText(data, size), COULOMB_FUZZ_TET_FORMAT, "fuzz");
  if (!file.ok()) return 0;
  if (!coulomb::fem::ValidateTetMesh(file.value().mesh).empty())
    coulomb::fuzz::Broken("tet mesh accepted but ValidateTetMesh refuses it");
  return 0;
}
