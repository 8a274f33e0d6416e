#include "coulomb/io/fclib_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>

#include "coulomb/io/friction_contact_file.h"

extern "C" {  // the test reads the global problem with libfclib itself, independently
#include <fclib.h>
}

#include "apps/coulomb/trinkle/trinkle_generator.h"
#include "coulomb/complementarity/cone_solvers.h"
#include "tests/support/build_paths.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

TEST(FclibFile, GeneratedProblemRoundTripsExactly) {
  trinkle::GeneratorRequest request;
  request.num_sliding = 5;
  request.num_rolling = 5;
  const auto g = trinkle::GenerateTrinkleProblem(request, 7);
  ASSERT_TRUE(g.has_value());
  FrictionContactProblem p = trinkle::MakeFrictionContactProblem(g->problem, 1e-3);
  p.name = "generated 5/5";
  const fs::path path = coulomb::testing::TempPath("coulomb_fclib_roundtrip.hdf5");
  fs::remove(path);
  ASSERT_FALSE(WriteFclibLocal(p, path.string()).has_value());
  EXPECT_TRUE(WriteFclibLocal(p, path.string()).has_value());  // refuses to overwrite
  const auto back = ReadFclibLocal(path.string());
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(Eigen::MatrixXd(back.value().W - p.W).norm(), 0.0);
  EXPECT_EQ(back.value().q, p.q);
  EXPECT_EQ(back.value().mu, p.mu);
  EXPECT_EQ(back.value().name, "generated 5/5");
  fs::remove(path);
}

TEST(FclibFile, ReadsTheFclibTestProblem) {
  const std::string path = testing::DataFile("fclib/local_problem_test.hdf5");
  ASSERT_TRUE(fs::exists(path)) << "missing from data/";
  const auto p = ReadFclibLocal(path);
  ASSERT_TRUE(p.ok()) << p.error().ToString();
  // data/README.md: "Boxes Stack", 48 contacts, W 144 × 144.
  EXPECT_EQ(p.value().num_contacts(), 48);
  EXPECT_EQ(p.value().W.rows(), 144);
  const Eigen::MatrixXd W(p.value().W);
  EXPECT_LT((W - W.transpose()).lpNorm<Eigen::Infinity>(), 1e-9 * W.lpNorm<Eigen::Infinity>());
}

TEST(FclibFile, BadFilesAreErrors) {
  EXPECT_FALSE(ReadFclibLocal("/nonexistent.hdf5").ok());
  const fs::path text = coulomb::testing::TempPath("coulomb_not_hdf5.hdf5");
  std::ofstream(text) << "hello";
  const auto r = ReadFclibLocal(text.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().reason.find("not an HDF5 file"), std::string::npos);
  fs::remove(text);
}

// Opens one dataset with libhdf5 in this process, as a reader without isolation would.
void OpenSpacedimInProcess(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t set = H5Dopen2(file, "/fclib_local/spacedim", H5P_DEFAULT);
  H5Dclose(set);
  H5Fclose(file);
  std::exit(0);
}

// fuzz_fclib's first find: a damaged chunk layout makes libhdf5 1.10.8 divide by zero inside
// H5Dopen2. In this process that kills the program (the death test); through our reader, which
// keeps libhdf5 in a child process, it is an error naming the file.
TEST(FclibFile, AFileThatCrashesLibhdf5IsAnErrorNotACrash) {
  const std::string path = std::string(coulomb::testing::SourceDir()) +
                           "/fuzz/regressions/fuzz_fclib/hdf5_chunk_divide_by_zero.hdf5";
  ASSERT_TRUE(fs::exists(path));
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(OpenSpacedimInProcess(path), "");
  const auto p = ReadFclibFile(path);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().ToString().find("hdf5_chunk_divide_by_zero.hdf5: "), std::string::npos)
      << p.error().ToString();
  EXPECT_NE(p.error().reason.find("damaged"), std::string::npos) << p.error().ToString();
}

Eigen::MatrixXd Dense(const fclib_matrix& m) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m.m, m.n);
  if (m.nz == -1) {
    for (int c = 0; c < m.n; ++c) {
      for (int k = m.p[c]; k < m.p[c + 1]; ++k) out(m.i[k], c) += m.x[k];
    }
  } else if (m.nz == -2) {
    for (int r = 0; r < m.m; ++r) {
      for (int k = m.p[r]; k < m.p[r + 1]; ++k) out(r, m.i[k]) += m.x[k];
    }
  } else {
    for (int k = 0; k < m.nz; ++k) out(m.i[k], m.p[k]) += m.x[k];
  }
  return out;
}

// A global problem (an LMGC90 dump of Siconos' tests, 9 contacts, 162 DoF) is condensed and solved;
// the certificate is computed from the raw global data with a dense Cholesky of M, not from the
// condensed W, q: v = M⁻¹ (H r + f), u = Hᵀ v + w, and per contact r ∈ K_μ, û ∈ K*_μ, r · û = 0.
TEST(FclibFile, GlobalProblemIsCondensedAndItsSolutionSatisfiesTheGlobalEquations) {
  const std::string path =
      fmt::format("{}/siconos/python_tests/LMGC_GlobalFrictionContactProblem00046.hdf5",
                  coulomb::testing::DataDir());
  ASSERT_TRUE(fs::exists(path)) << "missing from data/";
  const auto p = ReadFrictionContactFile(path);
  ASSERT_TRUE(p.ok()) << p.error().ToString();
  EXPECT_NE(p.value().name.find("global, 162 DoF, condensed, M from its upper triangle"),
            std::string::npos)
      << p.value().name;
  const FrictionContactResult result =
      SolveFrictionContact(p.value(), ConeSolverKind::kPortfolio, ConeSolverSettings{});
  ASSERT_TRUE(result.solved()) << result.message;

  fclib_global* g = fclib_read_global(path.c_str());
  ASSERT_NE(g, nullptr);
  // This file stores M's upper triangle only (LMGC90's symmetric storage): M = U + Uᵀ − diag U.
  const Eigen::MatrixXd U = Dense(*g->M), H = Dense(*g->H);
  ASSERT_EQ(Eigen::MatrixXd(U.triangularView<Eigen::StrictlyLower>()).norm(), 0.0);
  const Eigen::MatrixXd M =
      U + Eigen::MatrixXd(U.triangularView<Eigen::StrictlyUpper>()).transpose();
  const int n = g->M->n, m = g->H->n;
  const Eigen::VectorXd f = Eigen::Map<const Eigen::VectorXd>(g->f, n);
  const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(g->w, m);
  const Eigen::VectorXd mu = Eigen::Map<const Eigen::VectorXd>(g->mu, m / 3);
  fclib_delete_global(g);
  std::free(g);
  ASSERT_EQ(m, 3 * p.value().num_contacts());
  const Eigen::VectorXd& r = result.r;
  const Eigen::VectorXd v = M.llt().solve(H * r + f);
  const Eigen::VectorXd u = H.transpose() * v + w;
  const double scale = std::max({1.0, r.lpNorm<Eigen::Infinity>(), u.lpNorm<Eigen::Infinity>()});
  double worst = 0;
  for (int k = 0; k < m / 3; ++k) {
    const Eigen::Vector3d rk = r.segment<3>(3 * k), uk = u.segment<3>(3 * k);
    const Eigen::Vector3d uhat(uk[0] + mu[k] * uk.tail<2>().norm(), uk[1], uk[2]);
    worst = std::max(worst, rk.tail<2>().norm() - mu[k] * rk[0]);      // r ∈ K
    worst = std::max(worst, mu[k] * uhat.tail<2>().norm() - uhat[0]);  // û ∈ K*
    worst = std::max(worst, std::abs(rk.dot(uhat)) / scale);           // r ⊥ û
  }
  EXPECT_LT(worst / scale, 1e-6);
}

TEST(FclibFile, SiconosGlobalDatFilesAreRefusedNotMisread) {
  // GFC3D_Example00's M is 3 × 3 for one contact, so it parses as a local problem up to μ.
  for (const char* name : {"GFC3D_Example00.dat", "GFC3D_Example0.dat"}) {
    const std::string path =
        std::string(coulomb::testing::DataDir()) + "/siconos/FrictionContact/" + name;
    ASSERT_TRUE(fs::exists(path)) << "missing from data/";
    const auto p = ReadFrictionContactFile(path);
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_NE(p.error().reason.find("global (GFC3D)"), std::string::npos) << p.error().ToString();
  }
}

}  // namespace
}  // namespace coulomb
