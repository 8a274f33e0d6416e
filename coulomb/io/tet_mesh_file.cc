#include "coulomb/io/tet_mesh_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <limits>
#include <unordered_map>
#include <vector>

#include "coulomb/io/text_file.h"
#include "coulomb/io/token_reader.h"

namespace coulomb::io {
namespace {

constexpr std::int64_t kMaxCount = 100'000'000;

[[noreturn]] void Fail(const TokenReader& in, const std::string& field, const std::string& why) {
  throw ParseFailure(in.line(), field, why);
}

void Expect(TokenReader& in, const std::string& word) {
  const std::string got = in.NextWord(word);
  if (got != word) Fail(in, word, fmt::format("expected '{}', found '{}'", word, got));
}

// Skips words up to and including `word` (Gmsh sections we do not read).
void SkipPast(TokenReader& in, const std::string& word) {
  while (in.NextWord(word) != word) {
  }
}

Eigen::Vector3d NextPoint(TokenReader& in, const std::string& field) {
  Eigen::Vector3d p;
  for (int k = 0; k < 3; ++k) p[k] = in.NextDouble(field);
  return p;
}

// Vertices and tets with file tags, mapped to 0-based indices at the end.
struct Collected {
  std::vector<Eigen::Vector3d> points;
  std::unordered_map<std::int64_t, int> index_of_tag;  // Gmsh node tags → index
  std::vector<Eigen::Vector4i> tets;
  int skipped = 0;
};

int IndexOfTag(const Collected& c, std::int64_t tag, const TokenReader& in) {
  const auto found = c.index_of_tag.find(tag);
  if (found == c.index_of_tag.end()) Fail(in, "element", fmt::format("unknown node {}", tag));
  return found->second;
}

// The node tags of one element of Gmsh type `type`: a tetrahedron (type 4) is kept, the other
// types we may meet (1 line, 2 triangle, 3 quad, 5 hexahedron, 6 prism, 7 pyramid, 15 point)
// are read past and counted.
void ReadGmshElementNodes(TokenReader& in, std::int64_t type, Collected& c) {
  static const std::unordered_map<std::int64_t, int> kNodesOf = {{1, 2}, {2, 3}, {3, 4}, {4, 4},
                                                                 {5, 8}, {6, 6}, {7, 5}, {15, 1}};
  const auto known = kNodesOf.find(type);
  if (known == kNodesOf.end()) {
    Fail(in, "element type", fmt::format("unsupported Gmsh element type {}", type));
  }
  Eigen::Vector4i tet;
  for (int k = 0; k < known->second; ++k) {
    const std::int64_t tag =
        in.NextInt("element node", 1, std::numeric_limits<std::int64_t>::max());
    if (type == 4) tet[k] = IndexOfTag(c, tag, in);
  }
  if (type == 4) {
    c.tets.push_back(tet);
  } else {
    ++c.skipped;
  }
}

void ReadGmsh41(TokenReader& in, Collected& c) {
  SkipPast(in, "$Nodes");  // past $Entities and any other section
  const std::int64_t blocks = in.NextInt("$Nodes blocks", 0, kMaxCount);
  in.NextInt("$Nodes count", 0, kMaxCount);
  in.NextInt("$Nodes min tag", 0, std::numeric_limits<std::int64_t>::max());
  in.NextInt("$Nodes max tag", 0, std::numeric_limits<std::int64_t>::max());
  for (std::int64_t b = 0; b < blocks; ++b) {
    in.NextInt("entity dim", 0, 3);
    in.NextInt("entity tag", -kMaxCount, kMaxCount);
    if (in.NextInt("parametric", 0, 1) != 0) Fail(in, "parametric", "parametric nodes unsupported");
    const std::int64_t n = in.NextInt("nodes in block", 0, kMaxCount);
    std::vector<std::int64_t> tags(n);
    for (auto& t : tags) t = in.NextInt("node tag", 1, std::numeric_limits<std::int64_t>::max());
    for (const std::int64_t t : tags) {
      c.index_of_tag[t] = static_cast<int>(c.points.size());
      c.points.push_back(NextPoint(in, "node coordinates"));
    }
  }
  Expect(in, "$EndNodes");
  SkipPast(in, "$Elements");
  const std::int64_t blocks_e = in.NextInt("$Elements blocks", 0, kMaxCount);
  in.NextInt("$Elements count", 0, kMaxCount);
  in.NextInt("$Elements min tag", 0, std::numeric_limits<std::int64_t>::max());
  in.NextInt("$Elements max tag", 0, std::numeric_limits<std::int64_t>::max());
  for (std::int64_t b = 0; b < blocks_e; ++b) {
    in.NextInt("entity dim", 0, 3);
    in.NextInt("entity tag", -kMaxCount, kMaxCount);
    const std::int64_t type = in.NextInt("element type", 1, 1000);
    const std::int64_t n = in.NextInt("elements in block", 0, kMaxCount);
    for (std::int64_t e = 0; e < n; ++e) {
      in.NextInt("element tag", 0, std::numeric_limits<std::int64_t>::max());
      ReadGmshElementNodes(in, type, c);
    }
  }
}

void ReadGmsh22(TokenReader& in, Collected& c) {
  SkipPast(in, "$Nodes");
  const std::int64_t n = in.NextInt("$Nodes count", 0, kMaxCount);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t tag = in.NextInt("node tag", 1, std::numeric_limits<std::int64_t>::max());
    c.index_of_tag[tag] = static_cast<int>(c.points.size());
    c.points.push_back(NextPoint(in, "node coordinates"));
  }
  Expect(in, "$EndNodes");
  SkipPast(in, "$Elements");
  const std::int64_t m = in.NextInt("$Elements count", 0, kMaxCount);
  for (std::int64_t e = 0; e < m; ++e) {
    in.NextInt("element tag", 0, std::numeric_limits<std::int64_t>::max());
    const std::int64_t type = in.NextInt("element type", 1, 1000);
    const std::int64_t tags = in.NextInt("number of tags", 0, 100);
    for (std::int64_t t = 0; t < tags; ++t) in.NextInt("tag", -kMaxCount, kMaxCount);
    ReadGmshElementNodes(in, type, c);
  }
}

void ReadGmsh(TokenReader& in, Collected& c) {
  Expect(in, "$MeshFormat");
  const std::string version = in.NextWord("version");
  if (in.NextInt("file type", 0, 1) != 0) Fail(in, "file type", "binary .msh files unsupported");
  in.NextInt("data size", 4, 16);
  Expect(in, "$EndMeshFormat");
  if (version == "4.1") {
    ReadGmsh41(in, c);
  } else if (version.rfind("2.", 0) == 0) {
    ReadGmsh22(in, c);
  } else {
    Fail(in, "version", "unsupported .msh version " + version + " (2.2 and 4.1 are read)");
  }
}

void ReadVtk(TokenReader& in, Collected& c) {
  // Header: "# vtk DataFile Version x.y", a title line, "ASCII", "DATASET UNSTRUCTURED_GRID".
  SkipPast(in, "UNSTRUCTURED_GRID");
  SkipPast(in, "POINTS");
  const std::int64_t n = in.NextInt("POINTS count", 0, kMaxCount);
  in.NextWord("POINTS type");
  for (std::int64_t i = 0; i < n; ++i) c.points.push_back(NextPoint(in, "POINTS"));
  Expect(in, "CELLS");
  const std::int64_t cells = in.NextInt("CELLS count", 0, kMaxCount);
  in.NextInt("CELLS size", 0, kMaxCount);
  std::vector<std::vector<int>> connectivity(cells);
  for (auto& cell : connectivity) {
    cell.resize(in.NextInt("cell size", 1, 1000));
    for (int& v : cell) v = static_cast<int>(in.NextInt("cell vertex", 0, n - 1));
  }
  Expect(in, "CELL_TYPES");
  if (in.NextInt("CELL_TYPES count", 0, kMaxCount) != cells) {
    Fail(in, "CELL_TYPES", "count differs from CELLS");
  }
  for (const auto& cell : connectivity) {
    const std::int64_t type = in.NextInt("cell type", 0, 100);
    if (type == 10 && cell.size() == 4) {  // VTK_TETRA
      c.tets.emplace_back(cell[0], cell[1], cell[2], cell[3]);
    } else {
      ++c.skipped;
    }
  }
}

void ReadMedit(TokenReader& in, Collected& c) {
  Expect(in, "MeshVersionFormatted");
  in.NextInt("version", 1, 4);
  for (std::string word = in.NextWord("section"); word != "End";) {
    if (word == "Dimension") {
      if (in.NextInt("Dimension", 2, 3) != 3) Fail(in, "Dimension", "only 3D meshes are read");
    } else if (word == "Vertices") {
      const std::int64_t n = in.NextInt("Vertices count", 0, kMaxCount);
      for (std::int64_t i = 0; i < n; ++i) {
        c.points.push_back(NextPoint(in, "Vertices"));
        in.NextInt("vertex reference", -kMaxCount, kMaxCount);
      }
    } else {
      // Element sections: Edges (2), Triangles (3), Quadrilaterals (4), Tetrahedra (4),
      // Hexahedra (8), each vertex list followed by a reference number.
      const std::unordered_map<std::string, int> sizes = {{"Edges", 2},
                                                          {"Triangles", 3},
                                                          {"Quadrilaterals", 4},
                                                          {"Tetrahedra", 4},
                                                          {"Hexahedra", 8}};
      const auto known = sizes.find(word);
      if (known == sizes.end()) Fail(in, word, "unknown Medit section '" + word + "'");
      const std::int64_t n = in.NextInt(word + " count", 0, kMaxCount);
      for (std::int64_t e = 0; e < n; ++e) {
        Eigen::Vector4i tet;
        for (int k = 0; k < known->second; ++k) {
          const auto v = static_cast<int>(in.NextInt(word, 1, kMaxCount)) - 1;  // 1-based
          if (k < 4) tet[k] = v;
        }
        in.NextInt(word + " reference", -kMaxCount, kMaxCount);
        if (word == "Tetrahedra") {
          c.tets.push_back(tet);
        } else {
          ++c.skipped;
        }
      }
    }
    word = in.AtEnd() ? "End" : in.NextWord("section");
  }
}

}  // namespace

Expected<TetMeshFile> ParseTetMesh(const std::string& text, const std::string& format,
                                   const std::string& origin) {
  return CatchParseFailures<TetMeshFile>(origin, [&]() -> TetMeshFile {
    TokenReader in(text);
    Collected c;
    if (format == "msh") {
      ReadGmsh(in, c);
    } else if (format == "vtk") {
      ReadVtk(in, c);
    } else if (format == "mesh") {
      ReadMedit(in, c);
    } else {
      throw ParseFailure(0, "", "unknown mesh format '" + format + "' (msh, vtk, mesh)");
    }
    TetMeshFile out;
    out.skipped_elements = c.skipped;
    out.mesh.vertices.resize(3, static_cast<Eigen::Index>(c.points.size()));
    for (std::size_t i = 0; i < c.points.size(); ++i) out.mesh.vertices.col(i) = c.points[i];
    out.mesh.tets.resize(4, static_cast<Eigen::Index>(c.tets.size()));
    for (std::size_t e = 0; e < c.tets.size(); ++e) out.mesh.tets.col(e) = c.tets[e];
    // Indices first (orientation needs them in range), then orientation, then volumes.
    std::string defect = fem::ValidateTetMesh(out.mesh, 0.0);
    if (defect.empty() || defect.find("inverted") != std::string::npos) {
      out.reoriented = fem::OrientPositively(out.mesh);
      defect = fem::ValidateTetMesh(out.mesh);
    }
    if (!defect.empty()) throw ParseFailure(0, "", defect);
    return out;
  });
}

Expected<TetMeshFile> ReadTetMeshFile(const std::string& path) {
  Expected<std::string> text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  std::string format = std::filesystem::path(path).extension().string();
  if (!format.empty()) format.erase(0, 1);
  return ParseTetMesh(text.value(), format, path);
}

}  // namespace coulomb::io
