#pragma once
// A plain SVG x–y plot: axes with round ticks, a legend, series as markers or polylines. For
// the sweep summaries and the benchmarks' scaling plots; a handful of shapes does not justify a
// plotting library in C++.

#include <string>
#include <utility>
#include <vector>

namespace coulomb::io {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  // non-finite points are skipped
  bool line = true;                               // joined by a polyline (else markers only)
  bool markers = true;                            // a circle at each point
  bool dashed = false;
};

struct Plot {
  std::string title, x_label, y_label;
  bool log_x = false;  // logarithmic x axis (points with x ≤ 0 are skipped)
  bool log_y = false;  // logarithmic y axis (points with y ≤ 0 are skipped)
  std::vector<PlotSeries> series;
};

// A self-contained SVG document; an axis without finite data spans [0, 1].
std::string RenderSvgPlot(const Plot& plot);

}  // namespace coulomb::io
