#pragma once
// Linear tetrahedral meshes for FEM bodies (paper 2; docs/notes/sap-and-deformables.md §2): vertex
// positions and 4-vertex elements, checked for what breaks a simulation (inverted or degenerate
// elements, indices out of range, non-finite coordinates), with the boundary surface.

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace coulomb::fem {

struct TetMesh {
  Eigen::Matrix3Xd vertices;  // m, one column per vertex
  Eigen::Matrix4Xi tets;      // vertex indices, one column per element, positive orientation
  // Optional: the hexahedral cell each element was cut from (the structured meshers fill it;
  // empty for meshes read from files). Mean dilatation averages J over a cell.
  std::vector<int> cells;
  int num_vertices() const { return static_cast<int>(vertices.cols()); }
  int num_tets() const { return static_cast<int>(tets.cols()); }
};

// Signed volume of element e: (x1 − x0) · ((x2 − x0) × (x3 − x0)) / 6, positive when the
// element is positively oriented.
double SignedVolume(const TetMesh& mesh, int e);
double TotalVolume(const TetMesh& mesh);

// "" when every index is in range, every coordinate finite, and every element has a volume
// above `min_volume_ratio` times the mean |volume|; otherwise a sentence naming the first bad
// element (0-based) and why ("element 17 is inverted (volume -2.1e-07 m³)").
std::string ValidateTetMesh(const TetMesh& mesh, double min_volume_ratio = 1e-10);

// Swaps two vertices of every negatively oriented element (mesh files disagree on orientation);
// returns how many were flipped.
int OrientPositively(TetMesh& mesh);

// The boundary: faces that belong to exactly one element, oriented outward (counter-clockwise
// seen from outside), as vertex index triples.
std::vector<Eigen::Vector3i> BoundaryFaces(const TetMesh& mesh);

// Red refinement (Bey): each element split into 8 by its edge midpoints — 4 corner elements and
// the inner octahedron cut along one diagonal — so a face carries 6 vertices instead of 3.
// Vertex contacts sample a surface at its vertices: a coarse mesh (IPC's arch blocks are one
// hexahedron each) touches another flat face only at its corners.
TetMesh RefineTetMesh(const TetMesh& mesh);

// A structured mesh of the box [−half, half] (m) with n cells per axis, each cell split into
// 6 tetrahedra along its main diagonal (conforming across cells).
TetMesh MakeBoxMesh(const Eigen::Vector3d& half_extents, const Eigen::Vector3i& cells);

// A ball of `radius` (m) and a cylinder of `radius` and `length` along z, centred at the
// origin: the box mesh of 2n cells per side mapped radially (each point of the cube's shell of
// ∞-norm r goes to the sphere, or circle, of radius r). The map is continuous and one-to-one, so
// elements keep their orientation; those near the cube's corners are the most distorted.
TetMesh MakeBallMesh(double radius, int n);
TetMesh MakeCylinderMesh(double radius, double length, int n_radial, int n_axial);

}  // namespace coulomb::fem
