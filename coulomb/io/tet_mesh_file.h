#pragma once
// Tetrahedral mesh files (ASCII): Gmsh .msh (format 2.2 and 4.1), legacy VTK unstructured grids
// (.vtk) and Medit .mesh. Only 4-node tetrahedra are kept (other element types — surface
// triangles, lines, points — are skipped and counted). Elements are re-oriented positively
// (files disagree), then the mesh is validated: an inverted-after-reorientation or degenerate
// element, or an index out of range, is an error naming the file and the element.

#include <string>

#include "coulomb/base/error.h"
#include "coulomb/fem/tet_mesh.h"

namespace coulomb::io {

struct TetMeshFile {
  fem::TetMesh mesh;
  int skipped_elements = 0;  // non-tetrahedral elements in the file
  int reoriented = 0;        // elements whose vertex order was flipped
};

Expected<TetMeshFile> ReadTetMeshFile(const std::string& path);
// The same from text; `format` is "msh", "vtk" or "mesh".
Expected<TetMeshFile> ParseTetMesh(const std::string& text, const std::string& format,
                                   const std::string& origin);

}  // namespace coulomb::io
