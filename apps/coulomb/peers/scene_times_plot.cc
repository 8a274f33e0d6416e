#include "apps/coulomb/peers/scene_times_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace coulomb::peers {
namespace {

const char* EngineColor(const std::string& engine) {
  static const std::map<std::string, const char*> colors = {{"coulomb", "#c0392b"},
                                                            {"mujoco", "#2e86c1"},
                                                            {"bullet", "#27ae60"},
                                                            {"dart", "#8e44ad"},
                                                            {"ode", "#d68910"}};
  const auto it = colors.find(engine);
  return it == colors.end() ? "#7f8c8d" : it->second;
}

bool Counts(const PeerRow& r) {
  return r.status == "ok" && r.measures.passed && (r.engine != "coulomb" || r.failures == 0);
}

}  // namespace

std::string SceneTimesSvg(const std::vector<PeerRow>& rows) {
  std::vector<const PeerRow*> ran;
  for (const PeerRow& r : rows) {
    if (r.status == "ok" && r.us_per_step > 0) ran.push_back(&r);
  }
  constexpr double kLeft = 300, kWidth = 560, kRight = 60, kBar = 11, kGap = 16, kTop = 30;
  double low = 1, high = 10;
  if (!ran.empty()) {
    low = high = ran.front()->us_per_step;
    for (const PeerRow* r : ran) low = std::min(low, r->us_per_step);
    for (const PeerRow* r : ran) high = std::max(high, r->us_per_step);
  }
  const double decade_low = std::floor(std::log10(low)), decade_high = std::ceil(std::log10(high));
  const double span = std::max(1.0, decade_high - decade_low);
  const auto x_of = [&](double us) {
    return kLeft + kWidth * (std::log10(us) - decade_low) / span;
  };
  int groups = 0;
  for (std::size_t i = 0; i < ran.size(); ++i) {
    groups += i == 0 || ran[i]->scene != ran[i - 1]->scene;
  }
  const double height = kTop + ran.size() * (kBar + 2) + groups * kGap + 40;
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" )"
      R"(font-size="11"><rect width="100%" height="100%" fill="white"/>)"
      R"(<text x="{}" y="16" font-size="13">µs per step (log scale); pale: failed the scene's )"
      R"(figure or left a step uncertified</text>)",
      kLeft + kWidth + kRight, height, kLeft);
  for (double d = decade_low; d <= decade_high; ++d) {
    const double x = x_of(std::pow(10.0, d));
    svg +=
        fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/>)"
                    R"(<text x="{0}" y="{3}" text-anchor="middle">{4}</text>)",
                    x, kTop - 6, height - 30, height - 16, fmt::format("{:g}", std::pow(10.0, d)));
  }
  double y = kTop;
  for (std::size_t i = 0; i < ran.size(); ++i) {
    const PeerRow& r = *ran[i];
    if (i == 0 || r.scene != ran[i - 1]->scene) {
      y += kGap;
      svg += fmt::format(R"(<text x="6" y="{}" font-weight="bold">{}</text>)", y - 4, r.scene);
    }
    const bool counts = Counts(r);
    svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{} {}</text>)"
                       R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="{}"/>)"
                       R"(<text x="{}" y="{}">{}{}</text>)",
                       kLeft - 6, y + kBar - 2, r.engine, r.solver, kLeft, y,
                       std::max(1.0, x_of(r.us_per_step) - kLeft), kBar, EngineColor(r.engine),
                       counts ? 1.0 : 0.3, x_of(r.us_per_step) + 4, y + kBar - 2,
                       fmt::format("{:.3g}", r.us_per_step), counts ? "" : " ✗");
    y += kBar + 2;
  }
  return svg + "</svg>\n";
}

}  // namespace coulomb::peers
