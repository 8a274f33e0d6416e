// RenderSvgPlot: what lands in the document for linear and logarithmic axes.

#include "coulomb/io/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace coulomb::io {
namespace {

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// On log–log axes the ticks are decades spanning the data, and points a log axis cannot show
// (zero, negative, not finite) are left out rather than drawn at a made-up place.
TEST(SvgPlot, LogLogAxesTickDecadesAndSkipWhatTheyCannotShow) {
  Plot plot;
  plot.title = "cost <against> contacts";
  plot.log_x = plot.log_y = true;
  plot.series.push_back(
      {"a & b", {{300, 800}, {3000, 9000}, {30000, 2e5}, {0, 5}, {100, -1}, {NAN, 1}}});
  const std::string svg = RenderSvgPlot(plot);
  EXPECT_EQ(Count(svg, "<circle"), 3);
  for (const char* tick : {">1e2<", ">1e3<", ">1e4<", ">1e5<", ">1e6<"}) {
    EXPECT_NE(svg.find(tick), std::string::npos) << tick;
  }
  EXPECT_EQ(svg.find(">1e1<"), std::string::npos);  // below both axes' data
  EXPECT_NE(svg.find("cost &lt;against&gt; contacts"), std::string::npos);
  EXPECT_NE(svg.find("a &amp; b"), std::string::npos);
}

// A linear y axis keeps negative values and labels plain numbers.
TEST(SvgPlot, LinearAxisKeepsNegativeValues) {
  Plot plot;
  plot.series.push_back({"s", {{1, -2}, {2, 3}}});
  const std::string svg = RenderSvgPlot(plot);
  EXPECT_EQ(Count(svg, "<circle"), 2);
  EXPECT_NE(svg.find(">-2<"), std::string::npos);
  EXPECT_EQ(svg.find(">1e"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::io
