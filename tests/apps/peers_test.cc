// `coulomb bench peers`: the shared scenes, the engine-independent measures, and every installed
// engine run on the scenes with an analytic answer.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "apps/coulomb/peers/peers_bench.h"
#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"

namespace coulomb::peers {
namespace {

const PeerScene& FindScene(const std::vector<PeerScene>& scenes, const std::string& name) {
  for (const PeerScene& s : scenes) {
    if (s.name == name) return s;
  }
  throw std::runtime_error("no scene " + name);
}

// The ball's travel by integrating the rolling / slipping equations with tiny explicit steps,
// independent of the closed form: rolling while the needed friction is within μ m g.
double IntegrateBallTravel(double T, double m, double R, double mu, double g, double k) {
  const double I = 0.4 * m * R * R, h = 1e-6;
  double x = 0, v = 0, w = 0;
  for (double t = 0; t < T - 0.5 * h; t += h) {
    const double tau = k * (t + 0.5 * h);
    const double f_roll = m * R * tau / (I + m * R * R);  // friction that keeps v = ω R
    const bool rolls = f_roll <= mu * m * g && std::abs(v - w * R) < 1e-9;
    const double f = rolls ? f_roll : mu * m * g;
    const double a = f / m, alpha = (tau - f * R) / I;
    x += h * (v + 0.5 * h * a);
    v += h * a;
    w += h * alpha;
    if (rolls) w = v / R;  // hold the constraint exactly while rolling
  }
  return x;
}

TEST(PeerScenes, RampedBallTravelMatchesIntegration) {
  for (const double T : {0.3, 0.6869, 1.0, 2.0}) {
    const double closed = RampedBallTravel(T, 1.0, 0.1, 0.5, 9.81, 1.0);
    EXPECT_NEAR(closed, IntegrateBallTravel(T, 1.0, 0.1, 0.5, 9.81, 1.0), 1e-4 * closed + 1e-9)
        << "T = " << T;
  }
}

TEST(PeerScenes, AnalyticAnswersAndSharedConstants) {
  const std::vector<PeerScene> scenes = MakePeerScenes(/*quick=*/false);
  ASSERT_EQ(scenes.size(), 8u);
  // ½ g (sin 30° − μ cos 30°) t² over 1 s with μ = 0.5: the spec's 0.3286 m.
  EXPECT_NEAR(FindScene(scenes, "incline_mu0.5").analytic, 0.3286, 5e-5);
  EXPECT_EQ(FindScene(scenes, "incline_mu0.7").analytic, 0.0);
  const PeerScene& bin = FindScene(scenes, "bin");
  EXPECT_EQ(bin.bodies.size(), 200u);
  // Every sphere starts inside the bin and clear of its neighbours.
  EXPECT_EQ(MaxPenetration(bin,
                           [&] {
                             PeerFrame f = MakeFrame(0, bin.bodies.size());
                             for (std::size_t i = 0; i < bin.bodies.size(); ++i) {
                               f.position[i] = bin.bodies[i].position;
                               f.orientation[i] = bin.bodies[i].orientation;
                             }
                             return f;
                           }()),
            0.0);
  EXPECT_EQ(FindScene(scenes, "chain").hinges.size(), 20u);
}

PeerFrame InitialFrame(const PeerScene& scene) {
  PeerFrame f = MakeFrame(0, scene.bodies.size());
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    f.position[i] = scene.bodies[i].position;
    f.orientation[i] = scene.bodies[i].orientation;
  }
  return f;
}

TEST(PeerMeasures, PenetrationOfATiltedBoxAndOfTwoBoxes) {
  PeerScene scene = MakePeerScenes(false)[0];  // the 1 ms stack of unit cubes
  PeerFrame frame = InitialFrame(scene);
  EXPECT_NEAR(MaxPenetration(scene, frame), 0.0, 1e-12);
  // Tilt the bottom cube by 10° about x: its lowest edge is (cos 10° + sin 10°)/2 below centre.
  frame.orientation[0] = Eigen::AngleAxisd(10 * M_PI / 180, Eigen::Vector3d::UnitX());
  const double reach = 0.5 * (std::cos(10 * M_PI / 180) + std::sin(10 * M_PI / 180));
  EXPECT_NEAR(MaxPenetration(scene, frame), reach - 0.5, 1e-9);
  // Push the second cube 3 cm into the first (the tilted cube is back upright).
  frame.orientation[0] = Eigen::Quaterniond::Identity();
  frame.position[1].z() -= 0.03;
  EXPECT_NEAR(MaxPenetration(scene, frame), 0.03, 1e-9);
}

TEST(PeerMeasures, JointGapSeesADisplacedLink) {
  const PeerScene chain = MakePeerScenes(false).back();
  ASSERT_EQ(chain.name, "chain");
  PeerFrame frame = InitialFrame(chain);
  EXPECT_NEAR(MaxJointGap(chain, frame), 0.0, 1e-12);
  // Rotating the whole chain rigidly about the pivot keeps every hinge closed …
  const Eigen::Vector3d pivot = chain.hinges[0].anchor;
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitY()));
  for (std::size_t i = 0; i < chain.bodies.size(); ++i) {
    frame.position[i] = pivot + q * (chain.bodies[i].position - pivot);
    frame.orientation[i] = q;
  }
  EXPECT_NEAR(MaxJointGap(chain, frame), 0.0, 1e-12);
  // … moving one link by 2 mm opens its two hinges by 2 mm.
  frame.position[7].y() += 0.002;
  EXPECT_NEAR(MaxJointGap(chain, frame), 0.002, 1e-12);
}

TEST(PeerMeasures, EnergyOfASpinningFallingBox) {
  const std::vector<PeerScene> scenes = MakePeerScenes(false);
  const PeerScene& incline = FindScene(scenes, "incline_mu0.5");  // 0.2 m, 1 kg cube
  PeerFrame frame = InitialFrame(incline);
  frame.velocity[0] = {1, 2, 2};          // ½ m v² = 4.5 J
  frame.angular_velocity[0] = {0, 0, 3};  // ½ I ω², I = m (0.2² + 0.2²) / 12
  frame.orientation[0] = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ());  // spin axis unchanged
  const double potential = -incline.gravity.dot(frame.position[0]);
  EXPECT_NEAR(FrameEnergy(incline, frame), 4.5 + 0.5 * (0.08 / 12) * 9 + potential, 1e-12);
  // A frame that gained energy shows in the run's measure; one that lost it does not.
  std::vector<PeerFrame> frames = {InitialFrame(incline), InitialFrame(incline)};
  frames[1].velocity[0] = {0, 0, 1};
  // A difference of two ~10 J sums: 1e-10 J is a few ulps of them, whatever the compiler fuses.
  EXPECT_NEAR(MeasureRun(incline, frames).max_energy_gain, 0.5, 1e-10);
  frames[1].velocity[0].setZero();
  frames[1].position[0].z() -= 0.01 / std::cos(M_PI / 6);  // lower along gravity's z part
  EXPECT_EQ(MeasureRun(incline, frames).max_energy_gain, 0.0);
}

TEST(PeerMeasures, FiguresFromSyntheticTrajectories) {
  const std::vector<PeerScene> scenes = MakePeerScenes(false);
  const PeerScene& incline = FindScene(scenes, "incline_mu0.5");
  std::vector<PeerFrame> frames = {InitialFrame(incline), InitialFrame(incline)};
  frames[1].position[0].x() += incline.analytic + 0.004;  // slid 4 mm too far
  PeerMeasures m = MeasureRun(incline, frames);
  EXPECT_NEAR(m.figure, 0.004, 1e-12);
  EXPECT_FALSE(m.passed);  // tolerance 1 % of 0.3286 m
  frames[1].position[0].x() -= 0.003;
  EXPECT_TRUE(MeasureRun(incline, frames).passed);
  // A sphere found below the floor of the bin escaped; a NaN pose never passes.
  const PeerScene& bin = FindScene(scenes, "bin");
  frames = {InitialFrame(bin), InitialFrame(bin)};
  frames[1].position[17].z() = -0.2;
  EXPECT_EQ(MeasureRun(bin, frames).figure, 1.0);
  frames[1].position[3].x() = NAN;
  EXPECT_FALSE(MeasureRun(bin, frames).passed);
}

// Every installed engine (Coulomb's three formulations included) on the scenes with a closed-form
// answer: a wrongly built model (gravity, friction, inertia, torque frame) shows up here.
TEST(PeerEngines, EveryInstalledEngineReproducesTheAnalyticScenes) {
  const std::vector<PeerScene> scenes = MakePeerScenes(/*quick=*/true);
  int engines_run = 0;
  for (const PeerEngine& engine : AllPeerEngines()) {
    if (!engine.installed) continue;
    ++engines_run;
    for (const char* name : {"incline_mu0.5", "incline_mu0.7", "ball_torque"}) {
      const PeerScene& scene = FindScene(scenes, name);
      const PeerRow row = RunPeerRow(scene, engine, 1);
      ASSERT_EQ(row.status, "ok") << engine.engine << " " << engine.solver << " " << name;
      // 20 % of the μ = 0.5 slide (or of the ball's travel): loose enough for the soft peers
      // (MuJoCo's PGS creeps 1.5 mm on the μ = 0.7 slope in 0.25 s), tight enough to catch a
      // wrong model (without friction the cube would slide 0.15 m).
      const double scale = scene.figure == PeerFigure::kRollError
                               ? scene.analytic
                               : FindScene(scenes, "incline_mu0.5").analytic;
      EXPECT_LT(row.measures.figure, 0.2 * scale)
          << engine.engine << " " << engine.solver << " " << name;
      if (engine.engine == "coulomb") {
        EXPECT_TRUE(row.measures.passed) << engine.solver << " " << name;
        EXPECT_EQ(row.failures, 0) << engine.solver << " " << name;
      }
    }
  }
  EXPECT_GE(engines_run, 3);  // Coulomb's formulations at least
}

TEST(PeersReport, AnEngineThatIsNotInstalledGivesARowThatSaysSo) {
  PeerEngine missing;
  missing.engine = "dart";
  missing.solver = "-";
  missing.installed = false;  // what the registry lists when CMake did not find the package
  const PeerRow row = RunPeerRow(MakePeerScenes(true)[0], missing, 3);
  EXPECT_EQ(row.status, "not installed");
  EXPECT_NE(FormatMarkdown({row}).find("| dart | - | | | | | | | | | | | not installed |"),
            std::string::npos)
      << FormatMarkdown({row});
}

// The engines' repeats go in rounds (A B A B A B, not A A A B B B), each row keeps its fastest
// repeat, and an engine whose run fails stops while the others go on.
TEST(PeersReport, RepeatsAreInterleavedAcrossEnginesAndTheFastestIsKept) {
  const PeerScene scene = FindScene(MakePeerScenes(true), "incline_mu0.5");
  std::string order;
  const auto engine = [&](std::string name, std::vector<double> micros, int fail_on) {
    PeerEngine e;
    e.engine = name;
    e.solver = "fake";
    e.run = [&order, name, micros, fail_on, calls = 0](const PeerScene&) mutable {
      order += name;
      PeerRun run;
      if (++calls == fail_on) {
        run.ok = false;
        run.message = "diverged";
        return run;
      }
      run.step_seconds.assign(4, 1e-6 * micros[calls - 1]);  // every step the same
      return run;
    };
    return e;
  };
  const PeerEngine a = engine("a", {3, 1, 2}, 0), b = engine("b", {5, 4, 6}, 0);
  const PeerEngine c = engine("c", {7, 7, 7}, 2);
  const std::vector<PeerRow> rows = RunSceneRows(scene, {&a, &b, &c}, 3);
  EXPECT_EQ(order, "abcabcab");  // c fails in the second round
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_DOUBLE_EQ(rows[0].us_per_step, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].us_per_step, 4.0);
  EXPECT_EQ(rows[2].status, "failed: diverged");
  EXPECT_EQ(rows[2].us_per_step, 0.0);
}

TEST(PeersReport, VerdictPicksTheFastestPassingRowOfEachSide) {
  PeerRow a, b, c;
  a.scene = b.scene = c.scene = "s";
  a.engine = "coulomb", a.solver = "sap", a.us_per_step = 50, a.measures.passed = true;
  b.engine = "ode", b.solver = "quickstep", b.us_per_step = 10, b.measures.passed = false;
  c.engine = "bullet", c.solver = "si", c.us_per_step = 100, c.measures.passed = true;
  const std::string verdict = FormatVerdict({a, b, c});
  EXPECT_NE(verdict.find("| s | coulomb sap | 50 | bullet si | 100 | 0.5 |"), std::string::npos)
      << verdict;
}

using testing::CliRun;
using testing::RunCli;

TEST(PeersCli, JsonRowsForTheSelectedSceneAndEngines) {
  const std::string file = (coulomb::testing::TempPath("coulomb_peers.json")).string();
  const CliRun run = RunCli(
      "bench peers --quick --part scenes --scenes incline_mu0.7 --engines coulomb --json > " +
      file);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::ifstream in(file);
  const nlohmann::json rows = nlohmann::json::parse(in)["scenes"];
  ASSERT_EQ(rows.size(), 4u);  // velocity-lcp, cone, cone 1e-4, sap
  for (const auto& row : rows) {
    EXPECT_EQ(row["scene"], "incline_mu0.7");
    EXPECT_EQ(row["status"], "ok");
    EXPECT_TRUE(row["passed"].get<bool>()) << row.dump();
    EXPECT_GT(row["us_per_step"].get<double>(), 0);
  }
}

TEST(PeersCli, BadSceneAndExistingOutputAreRefused) {
  CliRun run = RunCli("bench peers --scenes nope");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("no scene named nope"), std::string::npos) << run.out;
  run = RunCli("bench peers --part everything");
  EXPECT_EQ(run.exit_code, 2);
  const std::filesystem::path dir = coulomb::testing::TempPath("coulomb_peers_out");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "peers.md") << "keep me";
  run = RunCli("bench peers --quick --part scenes --scenes incline_mu0.7 --engines ode --out " +
               dir.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("exists"), std::string::npos) << run.out;
  std::ifstream in(dir / "peers.md");
  std::string kept;
  std::getline(in, kept);
  EXPECT_EQ(kept, "keep me");
}

// The problem half on the small FC3D files: every row has a certified verdict, and the profile
// is an SVG with one curve per solver.
TEST(PeersCli, SolverProblemsReportAndProfile) {
  const std::filesystem::path data = coulomb::testing::TempPath("coulomb_peers_data");
  const std::filesystem::path src =
      std::filesystem::path(coulomb::testing::DataDir()) / "siconos/FrictionContact";
  ASSERT_TRUE(std::filesystem::exists(src)) << "missing from data/";
  std::filesystem::remove_all(data);
  std::filesystem::create_directories(data / "siconos/FrictionContact");
  for (const char* name : {"FC3D_Example1.dat", "Rover4609.dat", "GFC3D_Example0.dat"}) {
    std::filesystem::copy_file(src / name, data / "siconos/FrictionContact" / name);
  }
  const std::filesystem::path out = coulomb::testing::TempPath("coulomb_peers_prob");
  std::filesystem::remove_all(out);
  const CliRun run =
      RunCli("bench peers --part problems --data " + data.string() + " --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.out;
  // Both readable problems are solved by our portfolio; the global .dat file is listed as not read.
  EXPECT_NE(run.out.find("| portfolio | 2/2 |"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("GFC3D_Example0.dat: "), std::string::npos) << run.out;
  std::ifstream svg(out / "fc3d_profile.svg");
  const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find(">portfolio</text>"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::peers
