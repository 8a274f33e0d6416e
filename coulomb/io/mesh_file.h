#pragma once
// Surface meshes from the files robots and scenes are published with: OBJ through our own reader
// (obj_file.h, whose errors name the line), and STL (binary and ASCII), COLLADA (.dae), PLY, glTF
// and the other formats Assimp reads (Debian libassimp-dev, BSD-3) through Assimp.
//
// Units and axes: COLLADA files carry their unit (`<unit meter="0.001"/>`) and up axis; their
// vertices come back in metres with +Z up, the convention of URDF and of Coulomb scenes (a Y_UP
// file is turned so its +Y becomes +Z; a Z_UP file keeps its coordinates). Every other format has
// no unit: its numbers are taken as metres, as URDF readers do. Node transforms of the file are
// applied. Assimp parses in a child process (isolated_call.h), so a damaged file that makes it
// crash or hang is an error naming the file, not a dead program.

#include <string>

#include "coulomb/base/error.h"
#include "coulomb/io/obj_file.h"

namespace coulomb::io {

// The triangles of the file (polygons split, points and lines dropped), vertices in metres.
// Errors name the file: unreadable, an unknown format, no triangles, or a non-finite vertex.
Expected<SurfaceMesh> ReadMeshFile(const std::string& path);

}  // namespace coulomb::io
