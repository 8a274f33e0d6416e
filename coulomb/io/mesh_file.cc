#include "coulomb/io/mesh_file.h"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <assimp/Importer.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "coulomb/io/answer_bytes.h"
#include "coulomb/io/isolated_call.h"

namespace coulomb::io {
namespace {

// Assimp reads a sound mesh of a few MiB in well under a second; more than this is a hang.
constexpr std::chrono::milliseconds kChildBaseTime{5000};
constexpr std::chrono::milliseconds kChildTimePerMiB{1000};
constexpr int kDeepestNode = 256;  // a node tree deeper than this is a damaged file
constexpr std::uint8_t kErrorRecord = 0xFE, kMeshRecord = 0x01;

std::string Lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// ---- The child: Assimp calls only --------------------------------------------------------------

// Appends the triangles of `node` and its children, each mesh moved by the product of the node
// transforms above it (the root's includes COLLADA's unit and its turn to Y up).
void CollectTriangles(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent,
                      int depth, std::vector<double>& xyz, std::vector<std::int32_t>& triangles,
                      std::string& defect) {
  if (depth > kDeepestNode) {
    defect = fmt::format("its node tree is deeper than {} levels", kDeepestNode);
    return;
  }
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned k = 0; k < node.mNumMeshes && defect.empty(); ++k) {
    if (node.mMeshes[k] >= scene.mNumMeshes) {
      defect = "a node names a mesh that does not exist";
      return;
    }
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[k]];
    const std::int64_t first = static_cast<std::int64_t>(xyz.size() / 3);
    for (unsigned i = 0; i < mesh.mNumVertices; ++i) {
      const aiVector3D p = transform * mesh.mVertices[i];
      xyz.insert(xyz.end(), {p.x, p.y, p.z});
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines: no area to touch
      for (unsigned c = 0; c < 3; ++c) {
        if (face.mIndices[c] >= mesh.mNumVertices) {
          defect = "a face names a vertex that does not exist";
          return;
        }
        triangles.push_back(static_cast<std::int32_t>(first + face.mIndices[c]));
      }
    }
  }
  for (unsigned c = 0; c < node.mNumChildren && defect.empty(); ++c) {
    CollectTriangles(scene, *node.mChildren[c], transform, depth + 1, xyz, triangles, defect);
  }
}

std::string ReadInChild(const std::string& path) {
  Assimp::Importer importer;
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  std::string out;
  if (scene == nullptr || scene->mRootNode == nullptr) {
    Put(out, kErrorRecord);
    PutText(out, fmt::format("Assimp cannot read it: {}", importer.GetErrorString()));
    return out;
  }
  std::vector<double> xyz;
  std::vector<std::int32_t> triangles;
  std::string defect;
  CollectTriangles(*scene, *scene->mRootNode, aiMatrix4x4(), 0, xyz, triangles, defect);
  if (!defect.empty()) {
    Put(out, kErrorRecord);
    PutText(out, defect);
    return out;
  }
  Put(out, kMeshRecord);
  PutArray(out, xyz);
  PutArray(out, triangles);
  return out;
}

// ---- The parent ------------------------------------------------------------------------------

Expected<SurfaceMesh> ReadWithAssimp(const std::string& path, std::uintmax_t bytes) {
  const std::string extension = Lowercase(std::filesystem::path(path).extension().string());
  if (!Assimp::Importer().IsExtensionSupported(extension)) {
    return InputError{path, 0, "",
                      fmt::format("'{}' meshes are not read (OBJ, STL, COLLADA .dae, PLY, glTF "
                                  "and the other formats of Assimp are)",
                                  extension)};
  }
  // The answer is 24 bytes a vertex and 12 a triangle: 64 × the file and 64 MiB more is plenty.
  const std::size_t limit = 64 * static_cast<std::size_t>(bytes) + (std::size_t{64} << 20);
  const Expected<std::string> isolated =
      RunIsolated([&] { return ReadInChild(path); }, limit,
                  kChildBaseTime + kChildTimePerMiB * static_cast<std::int64_t>(bytes >> 20));
  if (!isolated.ok()) {
    return InputError{path, 0, "", "Assimp " + isolated.error().reason + " reading it (damaged?)"};
  }
  AnswerCursor cursor(isolated.value());
  std::uint8_t kind = 0;
  if (!cursor.Get(kind)) return InputError{path, 0, "", "Assimp gave no answer"};
  if (kind == kErrorRecord) {
    std::string reason;
    cursor.GetText(reason);
    return InputError{path, 0, "", reason};
  }
  std::vector<double> xyz;
  std::vector<std::int32_t> indices;
  if (kind != kMeshRecord || !cursor.GetArray(xyz) || !cursor.GetArray(indices) ||
      xyz.size() % 3 != 0 || indices.size() % 3 != 0) {
    return InputError{path, 0, "", "Assimp's answer was cut short"};
  }
  // COLLADA: Assimp has turned the file to Y up (its convention); turn Y up back to Z up.
  const bool y_up_to_z_up = extension == ".dae";
  SurfaceMesh mesh;
  mesh.vertices.reserve(xyz.size() / 3);
  for (std::size_t i = 0; i < xyz.size(); i += 3) {
    const Eigen::Vector3d p = y_up_to_z_up ? Eigen::Vector3d(xyz[i], -xyz[i + 2], xyz[i + 1])
                                           : Eigen::Vector3d(xyz[i], xyz[i + 1], xyz[i + 2]);
    if (!p.allFinite()) {
      return InputError{path, 0, "", fmt::format("vertex {} is not finite", mesh.vertices.size())};
    }
    mesh.vertices.push_back(p);
  }
  const auto count = static_cast<std::int64_t>(mesh.vertices.size());
  mesh.triangles.reserve(indices.size() / 3);
  for (std::size_t i = 0; i < indices.size(); i += 3) {
    for (std::size_t c = 0; c < 3; ++c) {
      if (indices[i + c] < 0 || indices[i + c] >= count) {
        return InputError{path, 0, "", "a triangle names a vertex that does not exist"};
      }
    }
    mesh.triangles.push_back({indices[i], indices[i + 1], indices[i + 2]});
  }
  if (mesh.triangles.empty()) return InputError{path, 0, "", "the file holds no triangles"};
  return mesh;
}

}  // namespace

Expected<SurfaceMesh> ReadMeshFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return InputError{path, 0, "", "is a directory, not a mesh file"};
  }
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (ec) return InputError{path, 0, "", ec.message()};
  if (Lowercase(std::filesystem::path(path).extension().string()) == ".obj") {
    return ReadObjFile(path);
  }
  return ReadWithAssimp(path, bytes);
}

}  // namespace coulomb::io
