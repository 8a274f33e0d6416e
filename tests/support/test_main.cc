// Every test binary's main: the numerics the programs run with, then GoogleTest. Without it the
// tests ran OpenBLAS on every core the process may use, so a deformable scene's pinned hash
// depended on that count (taskset -c 0 moved arm_hand_ball, gripper_teddy and soft_ball under
// all three formulations) while `coulomb run` gave a third answer.

#include <gtest/gtest.h>

#include "coulomb/base/numerics_threads.h"

int main(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
