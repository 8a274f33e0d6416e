#include "coulomb/io/lcp_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/build_paths.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

std::string Error(const std::string& text) {
  const auto r = ParseLcp(text, "test.dat");
  return r.ok() ? std::string("<no error>") : r.error().ToString();
}

TEST(LcpFile, SiconosDenseIsColumnMajor) {
  const auto r = ParseLcp("2\n0\n2 2\n2 2\n1 3\n2 4\n-1 -2\ncomment after q\n", "x.dat");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  Eigen::Matrix2d expected;
  expected << 1, 2, 3, 4;
  EXPECT_EQ(r.value().M, expected);
  EXPECT_EQ(r.value().q, Eigen::Vector2d(-1, -2));
  EXPECT_EQ(r.value().name, "x.dat");
}

TEST(LcpFile, BothFormatsRoundTripExactly) {
  LcpProblem p = testing::MakePMatrixLcp(7, 3);
  p.M(0, 0) = 1.0 / 3.0;  // needs all 17 digits
  p.q[1] = -1e-300;
  for (const LcpFileFormat format : {LcpFileFormat::kSiconosDat, LcpFileFormat::kJson}) {
    const auto r = ParseLcp(FormatLcp(p, format), "round-trip");
    ASSERT_TRUE(r.ok()) << r.error().ToString();
    EXPECT_EQ(r.value().M, p.M);
    EXPECT_EQ(r.value().q, p.q);
  }
}

TEST(LcpFile, ErrorsNameLineAndField) {
  EXPECT_EQ(Error("2\n0\n2 2\n2 2\n1 3\n2 nan\n-1 -2\n"), "test.dat:6: M[1][1]: value is NaN");
  EXPECT_EQ(Error("2\n0\n2 2\n2 2\n1 3\n2 4\n-1 inf\n"),
            "test.dat:7: q[1]: value is infinite ('inf')");
  EXPECT_EQ(Error("2\n0\n2 2\n2 2\n1 3\n2 4\n-1\n"),
            "test.dat:8: q[1]: unexpected end of file (truncated?)");
  EXPECT_EQ(Error("2\n0\n2 3\n"), "test.dat:3: M: M is 2 x 3, not square");
  EXPECT_EQ(Error("3\n0\n2 2\n"), "test.dat:3: M: M is 2 x 2 but the problem size is 3");
  EXPECT_EQ(Error("2\n7\n2 2\n"), "test.dat:2: M storage type: 7 is out of range [0, 2]");
  EXPECT_EQ(Error("two\n"), "test.dat:1: n (problem size): 'two' is not an integer");
  EXPECT_EQ(Error("   \n"), "test.dat:1: file is empty");
  EXPECT_NE(Error("2\n2\n2 2\n").find("not supported"), std::string::npos);
}

TEST(LcpFile, HugeSizeIsRejectedBeforeAllocating) {
  EXPECT_NE(Error("1000000\n0\n1000000 1000000\n").find("out of range"), std::string::npos);
  EXPECT_NE(Error("5000\n0\n5000 5000\n5000 5000\n1 2 3\n").find("file too short"),
            std::string::npos);
}

TEST(LcpFile, JsonErrors) {
  EXPECT_NE(Error("{\"format\": \"coulomb-lcp\", \"version\": 1, \"M\": [[1]], \"q\": [1], "
                  "\"extra\": 2}")
                .find("extra: unknown key"),
            std::string::npos);
  EXPECT_NE(Error("{\"format\": \"coulomb-lcp\", \"version\": 1, \"M\": [[1, 2]], \"q\": [1]}")
                .find("M[0]: must be an array of 1 numbers"),
            std::string::npos);
  EXPECT_NE(Error("{\"format\": \"coulomb-lcp\", \"version\": 1, \"M\": [[\"a\"]], \"q\": [1]}")
                .find("M[0][0]: must be a number"),
            std::string::npos);
  EXPECT_NE(Error("{\"format\": \"coulomb-lcp\",\n \"version\": 1,\n \"M\": [[1]] \"q\": [1]}")
                .find("test.dat:3: invalid JSON"),
            std::string::npos);
  EXPECT_NE(Error("{\"format\": \"other\"}").find("format"), std::string::npos);
}

TEST(LcpFile, EveryTruncationIsAnErrorNotACrash) {
  const std::string text = FormatLcp(testing::MakePMatrixLcp(4, 1), LcpFileFormat::kSiconosDat);
  // Cut at every token boundary before the last number (a cut inside a number may still parse
  // as a shorter number, and a cut after the last one loses only whitespace).
  const std::size_t last_token = text.find_last_not_of(" \n");
  const std::size_t last_start = text.find_last_of(" \n", last_token);
  for (std::size_t cut = 0; cut < last_start; ++cut) {
    if (text[cut] != ' ' && text[cut] != '\n') continue;
    EXPECT_FALSE(ParseLcp(text.substr(0, cut), "cut").ok()) << "cut at " << cut;
  }
}

TEST(LcpFile, WriterRefusesToOverwrite) {
  const fs::path path = coulomb::testing::TempPath("coulomb_lcp_file_test.json");
  fs::remove(path);
  const LcpProblem p = testing::MakePMatrixLcp(3, 1);
  EXPECT_FALSE(WriteLcpFile(p, path.string(), LcpFileFormat::kJson).has_value());
  const auto error = WriteLcpFile(p, path.string(), LcpFileFormat::kJson);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->reason.find("refusing to overwrite"), std::string::npos);
  EXPECT_FALSE(WriteLcpFile(p, path.string(), LcpFileFormat::kJson, /*overwrite=*/true));
  const auto back = ReadLcpFile(path.string());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value().M, p.M);
  fs::remove(path);
}

TEST(LcpFile, MissingFile) {
  const auto r = ReadLcpFile("/nonexistent/problem.dat");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "/nonexistent/problem.dat");
}

}  // namespace
}  // namespace coulomb
