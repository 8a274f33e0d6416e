// Checkpoints continue a run bit-identically: a run interrupted after its checkpoint and resumed
// from the file gives the same state hash and the same whole-run summary as the run that never
// stopped, for a rigid example under every formulation and for a deformable one; a checkpoint
// that does not fit the scene, or a damaged file, is refused naming what is wrong.
// (The arch checkpointed at 5 s, killed and resumed to 20 s: tests/apps/checkpoint_cli_test.cc.)

#include "coulomb/sim/checkpoint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "coulomb/io/checkpoint_file.h"
#include "coulomb/io/scene_file.h"
#include "tests/support/build_paths.h"

namespace coulomb::sim {
namespace {

Scene LoadExample(const std::string& name) {
  const std::string path =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/" + name + ".yaml";
  Expected<Scene> scene = io::ReadSceneFile(path);
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().ToString());
  return scene.ok() ? std::move(scene.value()) : Scene{};
}

std::string ScratchFile(const std::string& name) {
  const std::filesystem::path dir = coulomb::testing::TempPath("coulomb_checkpoint");
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// Runs `scene` with a checkpoint every `every` steps into `path` and stops it (as a kill would)
// after `stop_after` steps; returns the checkpoint read back from the file.
RunCheckpoint InterruptedRun(const Scene& scene, int every, int stop_after,
                             const std::string& path) {
  RunControl control;
  control.checkpoint_every = every;
  control.on_checkpoint = [&](const RunCheckpoint& checkpoint) {
    io::CheckpointFile file;
    file.duration = scene.duration;
    file.checkpoint = checkpoint;
    const auto error = io::WriteCheckpointFile(path, file);
    return error ? error->ToString() : std::string();
  };
  const RunSummary interrupted = Simulate(
      scene, nullptr, [stop_after](int done, int) { return done < stop_after; }, control);
  EXPECT_EQ(interrupted.steps, stop_after);
  EXPECT_EQ(interrupted.stopped, "");
  Expected<io::CheckpointFile> read = io::ReadCheckpointFile(path);
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().ToString());
  return read.ok() ? read.value().checkpoint : RunCheckpoint{};
}

RunSummary Resume(const Scene& scene, const RunCheckpoint& checkpoint) {
  RunControl control;
  control.resume = &checkpoint;
  return Simulate(scene, nullptr, nullptr, control);
}

void ExpectSameRun(const RunSummary& resumed, const RunSummary& straight) {
  EXPECT_EQ(resumed.state_hash, straight.state_hash);
  EXPECT_EQ(resumed.steps, straight.steps);
  EXPECT_EQ(resumed.sim_time, straight.sim_time);
  EXPECT_EQ(resumed.failed_steps, straight.failed_steps);
  EXPECT_EQ(resumed.max_contacts, straight.max_contacts);
  EXPECT_EQ(resumed.mean_contacts, straight.mean_contacts);
  EXPECT_EQ(resumed.mean_iterations, straight.mean_iterations);
  EXPECT_EQ(resumed.max_penetration, straight.max_penetration);
  EXPECT_EQ(resumed.initial_energy, straight.initial_energy);
  EXPECT_EQ(resumed.final_energy, straight.final_energy);
}

TEST(Checkpoint, ResumedRigidRunIsBitIdenticalUnderEveryFormulation) {
  for (const Formulation* formulation : Formulations()) {
    SCOPED_TRACE(formulation->name);
    Scene scene = LoadExample("stack");  // 40 contacts from the first step: warm starts matter
    scene.model.settings.formulation = formulation;
    scene.duration = 0.3;  // 60 steps of 5 ms
    const RunSummary straight = Simulate(scene, nullptr);
    ASSERT_EQ(straight.steps, 60);
    ASSERT_GT(straight.max_contacts, 0);
    const RunCheckpoint checkpoint =
        InterruptedRun(scene, 20, 30, ScratchFile(std::string(formulation->name) + "_stack.ckpt"));
    EXPECT_EQ(checkpoint.steps_done, 20);  // the last one before the stop
    ASSERT_EQ(CheckResumable(scene, checkpoint), "");
    ExpectSameRun(Resume(scene, checkpoint), straight);
  }
}

// The checkpoint's warm start is needed, so the test above can fail: an iterative cone solver
// resumed without it takes other iterations and ends elsewhere.
TEST(Checkpoint, ResumingWithoutTheWarmStartWouldNotContinueTheSameRun) {
  Scene scene = LoadExample("stack");
  scene.model.settings.formulation = FindFormulation("cone");
  ASSERT_NE(scene.model.settings.formulation, nullptr);
  scene.duration = 0.15;
  const RunSummary straight = Simulate(scene, nullptr);
  RunCheckpoint checkpoint = InterruptedRun(scene, 10, 10, ScratchFile("cone_no_warm.ckpt"));
  ASSERT_FALSE(checkpoint.contacts.empty());
  checkpoint.contacts.clear();
  EXPECT_NE(Resume(scene, checkpoint).state_hash, straight.state_hash);
}

// FEM bodies (x, v and R0 per element) under every formulation that couples them; the cone and
// the velocity LCP also need each deformable contact's last impulse, which the checkpoint carries
// among the persistent contacts (sim/warm_start.h).
TEST(Checkpoint, ResumedDeformableRunIsBitIdentical) {
  for (const char* name : {"sap", "cone", "velocity-lcp"}) {
    SCOPED_TRACE(name);
    Scene scene = LoadExample("soft_ball");
    scene.model.settings.formulation = FindFormulation(name);
    scene.duration = 0.2;  // 40 steps of 5 ms: the blocks land on the crate after 0.1 s
    const RunSummary straight = Simulate(scene, nullptr);
    ASSERT_GT(straight.max_contacts, 0);
    const RunCheckpoint checkpoint =
        InterruptedRun(scene, 30, 30, ScratchFile(std::string(name) + "_soft_ball.ckpt"));
    ASSERT_FALSE(scene.model.deformables.bodies.empty());
    ASSERT_EQ(checkpoint.deformables.size(), scene.model.deformables.bodies.size());
    for (std::size_t d = 0; d < checkpoint.deformables.size(); ++d) {
      EXPECT_EQ(checkpoint.deformables[d].R0.size(),
                static_cast<std::size_t>(scene.model.deformables.bodies[d].rest.num_tets()));
    }
    ExpectSameRun(Resume(scene, checkpoint), straight);
  }
}

// ... and the deformable contacts' impulses are needed there, so the test above can fail.
TEST(Checkpoint, ResumingWithoutTheDeformableWarmStartWouldNotContinueTheSameRun) {
  Scene scene = LoadExample("soft_ball");
  scene.model.settings.formulation = FindFormulation("cone");
  scene.duration = 0.2;
  const RunSummary straight = Simulate(scene, nullptr);
  RunCheckpoint checkpoint = InterruptedRun(scene, 30, 30, ScratchFile("cone_soft_no_warm.ckpt"));
  const auto deformable = [](const PersistentContact& c) { return (c.pair >> 62) == 3; };
  ASSERT_TRUE(std::any_of(checkpoint.contacts.begin(), checkpoint.contacts.end(), deformable));
  std::erase_if(checkpoint.contacts, deformable);
  EXPECT_NE(Resume(scene, checkpoint).state_hash, straight.state_hash);
}

TEST(Checkpoint, ACheckpointThatDoesNotFitTheSceneIsRefusedSayingWhy) {
  Scene stack = LoadExample("stack");
  stack.duration = 0.05;
  const RunCheckpoint checkpoint =
      MakeCheckpoint(stack.model, sim::MakeData(stack.model, stack.initial), {});
  EXPECT_EQ(CheckResumable(stack, checkpoint), "");
  Scene drop = LoadExample("drop");
  EXPECT_NE(CheckResumable(drop, checkpoint).find("time step"), std::string::npos);
  drop.model.time_step = stack.model.time_step;
  EXPECT_NE(CheckResumable(drop, checkpoint).find("nq ="), std::string::npos);
  Scene other = stack;
  other.model.settings.formulation = FindFormulation("sap");
  EXPECT_NE(CheckResumable(other, checkpoint).find("formulation velocity-lcp"), std::string::npos);
  RunCheckpoint late = checkpoint;
  late.steps_done = stack.NumSteps() + 1;
  EXPECT_NE(CheckResumable(stack, late).find("give a longer duration"), std::string::npos);
  RunCheckpoint broken = checkpoint;
  broken.v[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(CheckResumable(stack, broken).find("not finite"), std::string::npos);
}

std::string ErrorOf(const std::string& bytes) {
  Expected<io::CheckpointFile> read = io::ParseCheckpoint(bytes, "c.ckpt");
  return read.ok() ? std::string("accepted") : read.error().ToString();
}

TEST(CheckpointFile, RoundTripsTheStateBitForBitAndRefusesEveryDamage) {
  Scene scene = LoadExample("stack");
  scene.duration = 0.05;
  const std::string path = ScratchFile("stack_roundtrip.ckpt");
  const RunCheckpoint checkpoint = InterruptedRun(scene, 5, 5, path);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Expected<io::CheckpointFile> read = io::ParseCheckpoint(bytes, path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(HashState(read.value().checkpoint.q, read.value().checkpoint.v),
            HashState(checkpoint.q, checkpoint.v));
  ASSERT_EQ(read.value().checkpoint.contacts.size(), checkpoint.contacts.size());
  EXPECT_FALSE(checkpoint.contacts.empty());
  // Every proper prefix is refused (a kill while writing never leaves one, but a copy might).
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 8) {
    EXPECT_NE(ErrorOf(bytes.substr(0, n)), "accepted") << n << " bytes";
  }
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  EXPECT_NE(ErrorOf(flipped).find("checksum: does not match"), std::string::npos);
  std::string version = bytes;
  version[8] = 7;
  EXPECT_NE(ErrorOf(version).find("version: 7"), std::string::npos);
  EXPECT_NE(ErrorOf(bytes + "x").find("bytes after its end"), std::string::npos);
  EXPECT_NE(ErrorOf("coulomb: 1\n").find("not a Coulomb checkpoint"), std::string::npos);
  EXPECT_NE(ErrorOf("").find("empty"), std::string::npos);
}

// The run's --set overrides travel in the file, in order, so --resume reapplies them.
TEST(CheckpointFile, KeepsTheRunsSettingOverridesInOrder) {
  const std::string path = ScratchFile("overrides.ckpt");
  io::CheckpointFile file;
  file.checkpoint.q = Eigen::VectorXd::Zero(7);
  file.checkpoint.v = Eigen::VectorXd::Zero(6);
  file.settings = {"solver.tolerance=1e-9", "gravity=[0, 0, -1.62]", "solver.name=nsgs"};
  ASSERT_FALSE(io::WriteCheckpointFile(path, file).has_value());
  Expected<io::CheckpointFile> read = io::ReadCheckpointFile(path);
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  EXPECT_EQ(read.value().settings, file.settings);
}

// Writing replaces the file atomically: no temporary is left beside it, and a write into a
// folder that is gone fails with the reason instead of losing the previous checkpoint.
TEST(CheckpointFile, WritingReplacesAtomicallyAndSaysWhyItFailed) {
  const std::string path = ScratchFile("atomic.ckpt");
  io::CheckpointFile file;
  file.checkpoint.q = Eigen::VectorXd::LinSpaced(7, 0, 1);
  file.checkpoint.v = Eigen::VectorXd::Zero(6);
  ASSERT_FALSE(io::WriteCheckpointFile(path, file).has_value());
  file.checkpoint.steps_done = 3;
  ASSERT_FALSE(io::WriteCheckpointFile(path, file).has_value());
  Expected<io::CheckpointFile> read = io::ReadCheckpointFile(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read.value().checkpoint.steps_done, 3);
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    EXPECT_EQ(entry.path().string().find("atomic.ckpt.partial"), std::string::npos);
  }
  const auto error = io::WriteCheckpointFile(ScratchFile("missing_folder/c.ckpt"), file);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->ToString().find("cannot be written"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::sim
