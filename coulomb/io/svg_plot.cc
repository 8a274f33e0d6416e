#include "coulomb/io/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace coulomb::io {
namespace {

constexpr double kWidth = 680, kHeight = 420, kLeft = 70, kRight = 190, kTop = 36, kBottom = 50;
constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double Map(double x) const {  // to [0, 1]
    const double t = log ? std::log10(x) : x;
    return (t - lo) / (hi - lo);
  }
};

std::string Escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

// The axis over the finite values (log10 of them on a log axis), widened to round ticks.
Axis MakeAxis(const std::vector<double>& values, bool log, std::vector<double>& ticks) {
  Axis axis;
  axis.log = log;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    const double t = log ? std::log10(v) : v;
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  if (!(lo <= hi)) lo = 0, hi = 1;
  if (log) {
    lo = std::floor(lo);
    hi = std::max(std::ceil(hi), lo + 1);
    for (double t = lo; t <= hi + 1e-9; t += 1) ticks.push_back(t);
  } else {
    if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
      const double pad = std::max(std::abs(hi) * 0.1, 1e-12);
      lo -= pad, hi += pad;
    }
    const double raw = (hi - lo) / 5;
    const double magnitude = std::pow(10, std::floor(std::log10(raw)));
    double step = magnitude;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
      if (m * magnitude >= raw) {
        step = m * magnitude;
        break;
      }
    }
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    for (double t = lo; t <= hi + step * 1e-6; t += step)
      ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  }
  axis.lo = lo;
  axis.hi = hi;
  return axis;
}

// A point the axes can show: finite, and positive on a log axis.
bool Drawable(const Plot& plot, double x, double y) {
  return std::isfinite(x) && std::isfinite(y) && !(plot.log_x && x <= 0) && !(plot.log_y && y <= 0);
}

std::string TickLabel(double t, bool log) {
  return log ? fmt::format("1e{:g}", t) : fmt::format("{:.4g}", t);
}

}  // namespace

std::string RenderSvgPlot(const Plot& plot) {
  std::vector<double> xs, ys;
  for (const PlotSeries& s : plot.series) {
    for (const auto& [x, y] : s.points) {
      if (!Drawable(plot, x, y)) continue;
      xs.push_back(x);
      ys.push_back(y);
    }
  }
  std::vector<double> x_ticks, y_ticks;
  const Axis ax = MakeAxis(xs, plot.log_x, x_ticks), ay = MakeAxis(ys, plot.log_y, y_ticks);
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  const auto px = [&](double x) { return kLeft + w * ax.Map(x); };
  const auto py = [&](double y) { return kTop + h * (1 - ay.Map(y)); };
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" )"
      R"(font-size="12">)"
      "\n"
      R"(<rect width="100%" height="100%" fill="white"/>)"
      "\n"
      R"(<text x="{}" y="20" font-size="14">{}</text>)"
      "\n",
      kWidth, kHeight, kLeft, Escape(plot.title));
  for (const double t : x_ticks) {
    const double x = kLeft + w * (t - ax.lo) / (ax.hi - ax.lo);
    svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#ddd"/>)"
                       R"(<text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)"
                       "\n",
                       x, kTop, kTop + h, kTop + h + 16, TickLabel(t, plot.log_x));
  }
  for (const double t : y_ticks) {
    const double y = kTop + h * (1 - (t - ay.lo) / (ay.hi - ay.lo));
    svg += fmt::format(R"(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#ddd"/>)"
                       R"(<text x="{3}" y="{4:.1f}" text-anchor="end">{5}</text>)"
                       "\n",
                       kLeft, y, kLeft + w, kLeft - 6, y + 4, TickLabel(t, plot.log_y));
  }
  svg += fmt::format(
      R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="black"/>)"
      "\n"
      R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
      "\n"
      R"svg(<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">{}</text>)svg"
      "\n",
      kLeft, kTop, w, h, kLeft + w / 2, kHeight - 12, Escape(plot.x_label), kTop + h / 2,
      kTop + h / 2, Escape(plot.y_label));
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const PlotSeries& s = plot.series[k];
    const char* color = s.dashed ? "black" : kColors[k % 10];
    std::string points;
    for (const auto& [x, y] : s.points) {
      if (!Drawable(plot, x, y)) continue;
      points += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
      if (s.markers) {
        svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="none" stroke="{}"/>)",
                           px(x), py(y), color);
      }
    }
    if (s.line && !points.empty()) {
      svg += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="{}"{} points="{}"/>)",
                         color, s.dashed ? 2 : 1.5,
                         s.dashed ? R"( stroke-dasharray="6 4" opacity="0.6")" : "", points);
    }
    const double ly = kTop + 10 + 18 * static_cast<double>(k);
    svg += fmt::format(
        "\n"
        R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="2"{4}/>)"
        R"(<text x="{5}" y="{6}">{7}</text>)"
        "\n",
        kLeft + w + 12, ly, kLeft + w + 36, color, s.dashed ? R"( stroke-dasharray="6 4")" : "",
        kLeft + w + 42, ly + 4, Escape(s.label));
  }
  return svg + "</svg>\n";
}

}  // namespace coulomb::io
