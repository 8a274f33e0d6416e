#pragma once
// `coulomb bench peers`: every scene of peer_scene.h through Coulomb's formulations and every
// installed peer engine, one after another in one process, with engine-independent measures.

#include <string>
#include <vector>

#include "apps/coulomb/peers/peer_measures.h"
#include "apps/coulomb/peers/solver_problems.h"

namespace coulomb::peers {

struct PeersBenchOptions {
  bool json = false;
  bool quick = false;        // a quarter of each horizon, one repeat (tests)
  int repeats = 3;           // timing: the fastest repeat's mean µs per step (RunSceneRows)
  std::string scenes;        // comma-separated scene names; "" = all
  std::string engines;       // comma-separated engine names (coulomb, mujoco, …); "" = all
  std::string part = "all";  // scenes | problems | all
  std::string data;          // the shared data directory (problems); "" = the build's
  double tolerance = 1e-8;   // problems: ABH error every solver's answer must reach
  std::string out;           // also write peers.md, peers.json, fc3d_profile.svg, scenes.svg here
  bool force = false;        // replace those files if they exist
};

struct PeerRow {
  std::string scene, engine, solver, version, settings;
  std::string status = "ok";  // ok | not installed | failed: … | not run: …
  int steps = 0;
  double us_per_step = 0;  // the least over repeats of the mean wall time per step
  double settled_us = -1;  // the same over the settled phase (scenes that define one)
  double iterations = 0, contacts = 0;
  int failures = 0;
  // Peak resident memory during the runs, above the process's before them (MB); −1 unknown.
  double peak_memory_mb = -1;
  PeerMeasures measures;
};

// Runs every engine on one scene `repeats` times, in rounds: each round runs each engine once,
// so that the engines' repeats are interleaved and a slow phase of the machine (on this shared
// 2-core machine, identical binaries' few-µs steps moved by up to 40 % between runs seconds
// apart) slows one repeat of each engine instead of every repeat of one. Each row's time is its
// fastest repeat (the same rule for every engine); its measures come from its last run.
std::vector<PeerRow> RunSceneRows(const PeerScene& scene,
                                  const std::vector<const PeerEngine*>& engines, int repeats);
// The same for one engine.
PeerRow RunPeerRow(const PeerScene& scene, const PeerEngine& engine, int repeats);

std::string FormatMarkdown(const std::vector<PeerRow>& rows);
// {"scenes": [rows], "problems": [solver runs], "not_read": [files and why]}
std::string FormatJson(const std::vector<PeerRow>& rows, const std::vector<ProblemRun>& problems,
                       const std::vector<std::string>& skipped);
// Per scene: the fastest passing Coulomb formulation against the fastest passing peer.
std::string FormatVerdict(const std::vector<PeerRow>& rows);
// One row per engine × solver: version, iteration budget, tolerance, stabilisation (rule 5).
std::string FormatSettings(const std::vector<PeerRow>& rows);

int RunPeersBench(const PeersBenchOptions& options);

}  // namespace coulomb::peers
