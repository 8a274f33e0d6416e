// Scenes from Python: load a scene file with overrides (io/scene_settings.h), make its Data, step
// it with the GIL released, and read the state and the contacts as NumPy arrays that view the
// C++ storage without copying.

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coulomb/base/thread_pool.h"
#include "coulomb/io/run_outputs.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/io/scene_settings.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"
#include "python/src/bindings.h"

namespace py = pybind11;

namespace coulomb::python {
namespace {

// The exception class coulomb.SceneError, handed over by __init__.py when the package loads.
py::object& SceneErrorClass() {
  static py::object* cls = new py::object();  // never destroyed: outlives the interpreter's end
  return *cls;
}

// What `coulomb.load(...)` returns: the C++ sim::Model that Data and Step use, immutable and
// shared by every Data made from it, and the scene around it (name, duration, initial state,
// settings as the file gave them).
struct Model {
  std::shared_ptr<const sim::Scene> scene;
  std::shared_ptr<const sim::Model> model;  // scene->model, sharing the scene's ownership
};

// A run of a Model: the C++ sim::Data (state, clock, caches, workspaces, last report) and the
// generalized forces a controller writes between steps.
struct Data {
  std::shared_ptr<const sim::Model> model;  // the Model this Data belongs to (kept alive)
  sim::Data data;
  Eigen::VectorXd tau;  // nv: generalized forces added to the actuators' at every step
  // Held while a call changes `data` with the GIL released: a second thread stepping the same
  // Data meanwhile gets an error instead of two steps writing the same workspaces.
  std::unique_ptr<std::mutex> in_use = std::make_unique<std::mutex>();
};

// Holds d.in_use for one call that changes d, or raises if another thread is in one.
std::unique_lock<std::mutex> Claim(Data& d) {
  std::unique_lock<std::mutex> lock(*d.in_use, std::try_to_lock);
  if (!lock.owns_lock()) {
    throw py::value_error(
        "this Data is being stepped by another thread; give each thread its own Data "
        "(model.make_data()), they may share the Model");
  }
  return lock;
}

Model Load(const std::string& path, const std::vector<std::string>& overrides) {
  Expected<sim::Scene> loaded = io::ReadSceneFile(path);
  if (!loaded.ok()) {
    const InputError& e = loaded.error();
    throw SceneFailure{e.ToString(), e.file, e.field, e.line};
  }
  sim::Scene& scene = loaded.value();
  for (const std::string& assignment : overrides) {
    if (std::string error = io::ApplySettingOverride(assignment, scene); !error.empty()) {
      const std::string key = assignment.substr(0, assignment.find('='));
      throw SceneFailure{fmt::format("{}: override {}", path, error), path, key, 0};
    }
  }
  if (std::string defect = sim::ValidateScene(scene); !defect.empty()) {
    throw SceneFailure{path + ": " + defect, path, "", 0};
  }
  auto shared = std::make_shared<const sim::Scene>(std::move(scene));
  return Model{shared, std::shared_ptr<const sim::Model>(shared, &shared->model)};
}

Data MakeData(const Model& model) {
  Data d;
  d.model = model.model;
  d.data = sim::MakeData(*model.model, model.scene->initial);
  d.tau = Eigen::VectorXd::Zero(model.model->multibody.nv);
  return d;
}

// A NumPy array over `values` that keeps `owner` (the Data) alive and writes through.
py::array_t<double> View(Eigen::VectorXd& values, const py::object& owner) {
  return py::array_t<double>({values.size()}, {static_cast<py::ssize_t>(sizeof(double))},
                             values.data(), owner);
}

// A deformable body's vertex positions or velocities as an (n, 3) view of the 3 × n storage.
py::array_t<double> VertexView(const py::object& self, const std::string& name, bool velocities) {
  Data& d = self.cast<Data&>();
  const std::vector<fem::FemBody>& bodies = d.model->deformables.bodies;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].name != name) continue;
    Eigen::Matrix3Xd& m =
        velocities ? d.data.state.deformables[i].v : d.data.state.deformables[i].x;
    const auto item = static_cast<py::ssize_t>(sizeof(double));
    return py::array_t<double>({static_cast<py::ssize_t>(m.cols()), py::ssize_t{3}},
                               {3 * item, item}, m.data(), self);
  }
  throw py::key_error("no deformable body named '" + name + "'");
}

// n steps; the per-step reports as NumPy arrays. Stops at a non-finite state (coulomb.StepError).
py::dict StepN(const Model& model, Data& d, long long n) {
  if (d.model != model.model) {
    throw py::value_error("this Data was made by another Model (use model.make_data())");
  }
  if (n < 0) throw py::value_error("n must be >= 0");
  const sim::Model& sim_model = *model.model;
  const std::unique_lock<std::mutex> claimed = Claim(d);
  // What Python wrote into the views since the last step, checked before it can spread NaN.
  if (std::string defect = sim::ValidateState(sim_model, d.data.state); !defect.empty()) {
    throw py::value_error("data: " + defect);
  }
  if (std::string bad = sim::FirstNonFinite(d.tau, "tau"); !bad.empty()) {
    throw py::value_error("data: " + bad + " is not finite");
  }
  std::vector<std::string> status(n), message(n);
  py::array_t<int> iterations(n), contacts(n);
  py::array_t<double> residual(n), penetration(n), time(n);
  py::array_t<double> stages({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(4)});
  auto it = iterations.mutable_unchecked<1>();
  auto nc = contacts.mutable_unchecked<1>();
  auto res = residual.mutable_unchecked<1>();
  auto pen = penetration.mutable_unchecked<1>();
  auto clock = time.mutable_unchecked<1>();
  auto stage = stages.mutable_unchecked<2>();
  long long done = 0;
  std::string broken;
  {
    py::gil_scoped_release release;
    for (; done < n; ++done) {
      const sim::StepReport& r = sim::Step(sim_model, d.data, &d.tau);
      status[done] = std::string(ToString(r.status));
      message[done] = r.message;
      it(done) = r.iterations;
      nc(done) = r.num_contacts();
      res(done) = r.residual;
      pen(done) = r.max_penetration;
      clock(done) = d.data.state.time;
      stage(done, 0) = r.profile.collision;
      stage(done, 1) = r.profile.assembly;
      stage(done, 2) = r.profile.solve;
      stage(done, 3) = r.profile.advance;
      if (!d.data.state.q.allFinite() || !d.data.state.v.allFinite() || !d.tau.allFinite()) {
        broken = fmt::format("step {} (t = {:.6g} s): the state is no longer finite ({})",
                             d.data.steps - 1, d.data.state.time, r.message);
        ++done;
        break;
      }
    }
  }
  if (!broken.empty()) {
    throw StepFailure(broken);
  }
  py::dict out;
  out["status"] = status;
  out["message"] = message;
  out["iterations"] = iterations;
  out["contacts"] = contacts;
  out["residual"] = residual;
  out["max_penetration"] = penetration;
  out["time"] = time;
  out["stage_seconds"] = stages;
  return out;
}

// The last step's contacts (rigid ones), as arrays with one row per contact.
py::dict Contacts(const Data& d) {
  const sim::StepReport* r = &d.data.report;
  const std::size_t n = r->contacts.contacts.size();
  py::array_t<double> points({n, std::size_t{3}}), normals({n, std::size_t{3}});
  py::array_t<double> impulses({n, std::size_t{3}}), depths(n), mu(n);
  py::array_t<int> bodies({n, std::size_t{2}});
  auto p = points.mutable_unchecked<2>();
  auto nn = normals.mutable_unchecked<2>();
  auto imp = impulses.mutable_unchecked<2>();
  auto depth = depths.mutable_unchecked<1>();
  auto m = mu.mutable_unchecked<1>();
  auto b = bodies.mutable_unchecked<2>();
  for (std::size_t k = 0; k < n; ++k) {
    const geometry::Contact& c = r->contacts.contacts[k];
    for (int i = 0; i < 3; ++i) {
      p(k, i) = c.point[i];
      nn(k, i) = c.normal[i];
      const Eigen::Index at = static_cast<Eigen::Index>(3 * k) + i;
      imp(k, i) = at < r->impulses.size() ? r->impulses[at] : 0.0;
    }
    depth(k) = c.phi;
    m(k) = c.mu;
    b(k, 0) = c.body_a;
    b(k, 1) = c.body_b;
  }
  py::dict out;
  out["points"] = points;
  out["normals"] = normals;
  out["phi"] = depths;
  out["impulses"] = impulses;
  out["mu"] = mu;
  out["bodies"] = bodies;
  return out;
}

// World pose of a body in the current state: (position, 3 × 3 rotation).
std::pair<Eigen::Vector3d, Eigen::Matrix3d> BodyPose(Data& d, const std::string& name) {
  const multibody::Model& multibody = d.model->multibody;
  const int body = multibody.FindBody(name);
  if (body < 0) throw py::key_error("no body named '" + name + "'");
  const std::unique_lock<std::mutex> claimed = Claim(d);
  multibody::CalcForwardKinematics(multibody, d.data.multibody, d.data.state.q, d.data.state.v);
  const math::Transform& X = d.data.multibody.X_world[body];
  return {X.p, X.R};
}

// Where a joint's coordinates sit in q and v (for controllers writing data.tau).
py::dict Joint(const Model& model, const std::string& name) {
  const multibody::Model& m = model.model->multibody;
  for (const multibody::Body& b : m.bodies) {
    if (b.joint_name != name) continue;
    py::dict out;
    out["q_index"] = b.q_index;
    out["v_index"] = b.v_index;
    out["nq"] = multibody::ConfigurationSize(b.joint);
    out["nv"] = multibody::VelocitySize(b.joint);
    out["type"] = std::string(multibody::ToString(b.joint));
    out["body"] = b.name;
    return out;
  }
  throw py::key_error("no joint named '" + name + "'");
}

std::vector<std::string> BodyNames(const Model& model) {
  std::vector<std::string> names;
  for (const multibody::Body& b : model.model->multibody.bodies) names.push_back(b.name);
  return names;
}

// The whole run, as `coulomb run --json` summarizes it (the same JSON text, parsed by the
// package's run()): steps, failures, penetration, energies, worst accuracy measures, state hash.
std::string RunSummaryJson(const Model& model) {
  sim::RunSummary summary;
  {
    py::gil_scoped_release release;
    summary = sim::Simulate(*model.scene, nullptr);
  }
  return io::FormatSummaryJson(summary);
}

// coulomb.SceneError (defined in __init__.py) and coulomb.StepError.
void RegisterErrors(py::module_& m) {
  m.def(
      "_register_scene_error", [](py::object cls) { SceneErrorClass() = std::move(cls); },
      "Internal: hands coulomb.SceneError to the compiled module.");
  py::register_exception<StepFailure>(m, "StepError", PyExc_RuntimeError);
  // By value: pybind11 takes a plain void(*)(std::exception_ptr).
  py::register_exception_translator(
      [](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
        try {
          if (p) std::rethrow_exception(p);
        } catch (const SceneFailure& e) {
          py::object cls = SceneErrorClass();
          if (!cls) {
            PyErr_SetString(PyExc_ValueError, e.message.c_str());
            return;
          }
          py::object error = cls(e.message, e.file, e.line, e.key);
          PyErr_SetObject(cls.ptr(), error.ptr());
        }
      });
}

void RegisterModel(py::module_& m) {
  py::class_<Model>(m, "Model",
                    "A scene read from its file: the immutable C++ sim::Model that every Data made "
                    "from it steps, with the scene's name, duration and initial state.")
      .def_property_readonly(
          "name", [](const Model& model) { return model.scene->name; }, "scene name")
      .def_property_readonly(
          "nq", [](const Model& model) { return model.model->multibody.nq; }, "configuration size")
      .def_property_readonly(
          "nv", [](const Model& model) { return model.model->multibody.nv; }, "velocity size")
      .def_property_readonly(
          "time_step", [](const Model& model) { return model.model->time_step; }, "time step δt, s")
      .def_property_readonly(
          "duration", [](const Model& model) { return model.scene->duration; },
          "the scene's simulated time, s")
      .def_property_readonly(
          "num_steps", [](const Model& model) { return model.scene->NumSteps(); },
          "steps in the scene's duration")
      .def_property_readonly(
          "formulation",
          [](const Model& model) { return std::string(model.model->settings.formulation->name); },
          "time-stepping formulation")
      .def_property_readonly(
          "solver",
          [](const Model& model) {
            const sim::Scene& s = *model.scene;
            return s.model.settings.formulation->solver_name(s.model.settings);
          },
          "the formulation's solver")
      .def_property_readonly("body_names", &BodyNames, "names of the moving bodies, in order")
      .def_property_readonly(
          "deformable_names",
          [](const Model& model) {
            std::vector<std::string> names;
            for (const fem::FemBody& b : model.model->deformables.bodies) names.push_back(b.name);
            return names;
          },
          "names of the deformable (FEM) bodies")
      .def("joint", &Joint, py::arg("name"),
           "Where a joint's coordinates sit: q_index, v_index, nq, nv, type and body.")
      .def(
          "settings_yaml",
          [](const Model& model) { return io::EffectiveSettingsYaml(*model.scene); },
          "The effective settings as YAML (what `coulomb info --settings` prints).")
      .def("make_data", &MakeData, "A fresh Data at the scene's initial state.")
      .def("__repr__", [](const Model& model) {
        const sim::Scene& s = *model.scene;
        return fmt::format("<coulomb.Model '{}': {} bodies, nv = {}, {} at δt = {} s>", s.name,
                           s.model.multibody.bodies.size(), s.model.multibody.nv,
                           s.model.settings.formulation->name, s.model.time_step);
      });
}

void RegisterData(py::module_& m) {
  py::class_<Data>(m, "Data", "The state of a run of one Model, and its workspaces.")
      .def_property_readonly(
          "q", [](const py::object& self) { return View(self.cast<Data&>().data.state.q, self); },
          "configuration (a NumPy view of the state: writing it changes the next step)")
      .def_property_readonly(
          "v", [](const py::object& self) { return View(self.cast<Data&>().data.state.v, self); },
          "generalized velocity (a NumPy view of the state: writing it changes the next step)")
      .def_property_readonly(
          "tau", [](const py::object& self) { return View(self.cast<Data&>().tau, self); },
          "generalized forces (nv; N, N m) added to the scene's actuators at every step, a NumPy "
          "view: a controller writes it between steps")
      .def_property(
          "time", [](const Data& d) { return d.data.state.time; },
          [](Data& d, double t) {
            if (!std::isfinite(t))
              throw py::value_error(fmt::format("time = {} s is not finite", t));
            const std::unique_lock<std::mutex> claimed = Claim(d);
            d.data.state.time = d.data.start_time = t;
            d.data.steps = 0;
          },
          "simulated time, s")
      .def_property_readonly(
          "steps", [](const Data& d) { return d.data.steps; }, "steps taken since the time was set")
      .def_property(
          "threads", [](const Data& d) { return d.data.workers.size(); },
          [](Data& d, int threads) {
            if (threads < 1) {
              throw py::value_error(fmt::format("threads = {} must be at least 1", threads));
            }
            const std::unique_lock<std::mutex> claimed = Claim(d);
            d.data.workers = ThreadPool(threads);
          },
          "threads a step runs on (make_data: 1, as `coulomb run`); every count gives the same "
          "answer, bit for bit")
      .def(
          "reserve_contacts",
          [](Data& d, int contacts) {
            if (contacts < 0) {
              throw py::value_error(fmt::format("contacts = {} must be at least 0", contacts));
            }
            const std::unique_lock<std::mutex> claimed = Claim(d);
            sim::ReserveContacts(*d.model, d.data, contacts);
          },
          py::arg("contacts"),
          "Makes room for steps of up to this many contacts, so that they allocate nothing "
          "(make_data makes room for 4 per collision geometry on a moving body). Changes no "
          "result; a step with more contacts still runs, its buffers growing.")
      .def("contacts", &Contacts,
           "The last step's rigid contacts: points, normals (from B into A), phi (m), impulses "
           "(N s, normal first), mu and the body pair (−1: the world), one row each.")
      .def(
          "vertices",
          [](const py::object& self, const std::string& name) {
            return VertexView(self, name, false);
          },
          py::arg("name"), "A deformable body's vertex positions, (n, 3) m, a view of the state.")
      .def(
          "vertex_velocities",
          [](const py::object& self, const std::string& name) {
            return VertexView(self, name, true);
          },
          py::arg("name"), "A deformable body's vertex velocities, (n, 3) m/s, a view.")
      .def("body_pose", &BodyPose, py::arg("name"),
           "World pose of a body now: (position (3,), rotation (3, 3)).")
      .def(
          "state_hash", [](const Data& d) { return sim::HashState(d.data.state); },
          "FNV-1a hash of q, v and the deformable state (as `coulomb run` reports it).");
}

}  // namespace

void RegisterScenes(py::module_& m) {
  RegisterErrors(m);
  RegisterModel(m);
  RegisterData(m);
  m.def("_load", &Load, py::arg("path"), py::arg("overrides"),
        "Internal: reads a scene and applies 'key=value' overrides (coulomb.load wraps it).");
  m.def("_run_summary_json", &RunSummaryJson, py::arg("model"),
        "Internal: runs the scene's whole duration and returns `coulomb run --json`'s text.");
  m.def("step", &StepN, py::arg("model"), py::arg("data"), py::arg("n") = 1,
        "Advances data by n steps of model (the GIL is released meanwhile). Returns the per-step "
        "reports as arrays: status, message, iterations, contacts, residual, max_penetration, "
        "time and stage_seconds (collision, assembly, solve, advance).");
}

}  // namespace coulomb::python
