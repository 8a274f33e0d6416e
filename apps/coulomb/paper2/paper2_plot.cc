// The cylinder's force–approach plot of `coulomb bench paper2` (plain SVG, no plotting library:
// a handful of polylines does not justify a dependency).

#include <fmt/format.h>

#include "apps/coulomb/paper2/paper2_bench.h"

namespace coulomb::paper2 {
namespace {

constexpr double kWidth = 640, kHeight = 420, kPad = 56;
constexpr double kMaxApproach = 0.2, kMaxForce = 1.5;  // m, MN/m

double X(double approach) {
  return kPad + approach / kMaxApproach * (kWidth - 2 * kPad);
}
double Y(double force) {
  return kHeight - kPad - force / kMaxForce * (kHeight - 2 * kPad);
}

std::string Polyline(const std::vector<std::pair<double, double>>& points, const char* color,
                     bool dashed) {
  std::string coordinates;
  for (const auto& [x, y] : points) coordinates += fmt::format("{:.1f},{:.1f} ", X(x), Y(y));
  return fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n",
                     color, dashed ? " stroke-dasharray=\"6 4\"" : "", coordinates);
}

}  // namespace

std::string FormatCylinderSvg(const std::vector<Paper2Row>& rows) {
  constexpr const char* kColors[] = {"#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
  std::string body;
  const std::vector<std::pair<double, double>>* reference = nullptr;
  int k = 0;
  for (const Paper2Row& r : rows) {
    if (r.figure.curve.empty()) continue;
    reference = &r.figure.reference;
    const char* color = kColors[k % 5];
    body += Polyline(r.figure.curve, color, false);
    body += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{} (mean error {:.0f} %)</text>\n",
                        kPad + 10, kPad + 26 + 16 * k, color, r.name, r.figure.value);
    ++k;
  }
  if (reference == nullptr) return "";
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n<line x1=\"{2}\" y1=\"{3}\" x2=\"{4}\" y2=\"{3}\" stroke=\"black\"/>\n"
      "<line x1=\"{2}\" y1=\"{3}\" x2=\"{2}\" y2=\"{2}\" stroke=\"black\"/>\n"
      "<text x=\"{5}\" y=\"{6}\">approach of the plates (m)</text>\n"
      "<text x=\"14\" y=\"{7}\" transform=\"rotate(-90 14 {7})\">force per length (MN/m)</text>\n",
      kWidth, kHeight, kPad, kHeight - kPad, kWidth - kPad, kWidth / 2 - 70, kHeight - 14,
      kHeight / 2 + 60);
  for (int i = 0; i <= 4; ++i) {
    out += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">{:.2f}</text>\n", X(0.05 * i) - 12,
                       kHeight - kPad + 16, 0.05 * i);
  }
  for (int i = 0; i <= 3; ++i) {
    out += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">{:.1f}</text>\n", kPad - 30, Y(0.5 * i) + 4,
                       0.5 * i);
  }
  out += Polyline(*reference, "black", true);
  out += fmt::format("<text x=\"{}\" y=\"{}\">reference, solids4foam (dashed)</text>\n", kPad + 10,
                     kPad + 10);
  return out + body + "</svg>\n";
}

}  // namespace coulomb::paper2
