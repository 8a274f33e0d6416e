#pragma once
// `coulomb run SCENE` and `coulomb info SCENE`.

#include <optional>
#include <string>
#include <vector>

namespace coulomb::app {

struct RunOptions {
  std::string scene;
  std::string formulation;                 // overrides the scene's when not empty
  std::string solver;                      // idem
  std::optional<double> time_step;         // s; unset: the scene's
  std::optional<double> duration;          // s; unset: the scene's
  std::vector<std::string> settings;       // --set KEY=VALUE, applied in order (scene_settings.h)
  std::string out_dir;                     // trajectory.csv, steps.csv, summary.json ("" : none)
  std::string html;                        // self-contained replay ("" : none)
  std::string checkpoint;                  // keep a checkpoint here ("" : none)
  std::optional<double> checkpoint_every;  // s of simulated time between checkpoints
  std::string resume;                      // continue from this checkpoint ("" : a new run)
  bool json = false;                       // print the summary JSON on stdout
  bool force = false;                      // replace existing output files
  bool quiet = false;                      // no progress display
  int threads = 0;                         // the step's threads (sim::Data::workers); 0: all cores
};

// Exit codes: 0 every step solved, 1 some steps failed (the summary says which first),
// 2 bad input (file, line and key on stderr).
int RunScene(const RunOptions& options);

// `coulomb info`: a scene's summary, or with `settings` its effective settings as YAML
// (after the --set overrides), or with `reference` the table of every setting (Markdown).
struct InfoOptions {
  std::string scene;
  std::vector<std::string> settings;  // --set KEY=VALUE
  bool print_settings = false;        // --settings
  bool reference = false;             // --settings-reference
};
int RunInfo(const InfoOptions& options);

}  // namespace coulomb::app
