// A report as a reader sees it: `index.html` rendered by headless Chromium (Debian's chromium,
// installed by scripts/install-deps.sh). A script appended to a copy of the page reports what the
// browser laid out — the images decoded, the findings above the first chart, the page no wider
// than the window, the findings table's rows — and the test checks it against the database.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Sqlite.hpp"
#include "tests/cli/SmallSweep.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::read_file;
using testing::run_mapsim;
using testing::sh;
using testing::TempDir;

constexpr const char* kChromium = "/usr/bin/chromium";

// Runs after the page and its images have loaded; writes its findings into the DOM, which
// Chromium's --dump-dom prints.
constexpr const char* kProbe = R"(<script>
window.addEventListener('load', () => {
  const images = [...document.images];
  const headings = [...document.querySelectorAll('h2')];
  const findings = headings.find(h => h.textContent.startsWith('Findings'));
  const table = document.querySelector('table');
  const out = {
    images: images.length,
    broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).length,
    first_heading: headings.length ? headings[0].textContent : '',
    findings_first: !!(findings && images.length &&
                       findings.getBoundingClientRect().top < images[0].getBoundingClientRect().top),
    sideways: document.documentElement.scrollWidth > window.innerWidth,
    rows: table ? [...table.rows].slice(1).map(r => [...r.cells].map(c => c.innerText.trim()).join('|')) : [],
  };
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
)";

/// The probe's JSON for the page at `page`, as Chromium renders it in a 1280 x 1024 window.
std::string render(const fs::path& page, const fs::path& scratch) {
  const auto dom = scratch / "dom.html";
  const std::string command = fmt::format(
      "{} --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--user-data-dir={} --allow-file-access-from-files --window-size=1280,1024 "
      "--virtual-time-budget=10000 --dump-dom file://{} >{} 2>{}",
      kChromium, sh(scratch / "profile"), fs::absolute(page).string(), sh(dom),
      sh(scratch / "chromium.err"));
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << read_file(scratch / "chromium.err");
  const auto text = read_file(dom);
  const std::string open = "<pre id=\"probe\">";
  const auto begin = text.find(open);
  EXPECT_NE(begin, std::string::npos) << text.substr(0, 500);
  if (begin == std::string::npos) return {};
  const auto end = text.find("</pre>", begin);
  return text.substr(begin + open.size(), end - begin - open.size());
}

TEST(ReportInBrowser, OpensWithTheFindingsAndShowsEveryChart) {
  ASSERT_TRUE(fs::exists(kChromium)) << kChromium << " is missing: run scripts/install-deps.sh";
  const TempDir dir;
  const auto config = dir.write("small.yaml", testing::kSmallConfig);
  const auto db = dir.path() / "r.db";
  ASSERT_EQ(run_mapsim("run " + sh(config) + " --db " + sh(db)).exit_code, 0);
  const auto out = dir.path() / "report";
  const auto report = run_mapsim("report " + sh(db) + " --out " + sh(out));
  ASSERT_EQ(report.exit_code, 0) << report.err;

  const auto page = out / "probe.html";
  {
    std::ofstream copy(page);
    copy << read_file(out / "index.html") << kProbe;
  }
  const auto probe = render(page, dir.path());
  EXPECT_THAT(probe, HasSubstr("\"broken\":0"));
  EXPECT_THAT(probe, HasSubstr("\"first_heading\":\"Findings\""));
  EXPECT_THAT(probe, HasSubstr("\"findings_first\":true"));
  EXPECT_THAT(probe, HasSubstr("\"sideways\":false"));
  const auto images = probe.find("\"images\":");
  ASSERT_NE(images, std::string::npos) << probe;
  EXPECT_GE(std::stoi(probe.substr(images + 9)), 4);  // bars, static bars, agreement, summary

  // The findings table names, for LU under the flow model, the mapper with the shortest
  // replay in the database.
  exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
  const auto fastest = connection.query_text(
      "SELECT mapper FROM results WHERE model = 'flow' AND workload LIKE 'npb:lu%' "
      "ORDER BY makespan_ps, mapper LIMIT 1");
  const std::string row = "npb:lu:S:16:iterations=1|torus:2x2x4|flow";
  const auto lu = probe.find(row);
  ASSERT_NE(lu, std::string::npos) << probe;
  // The next cell after the model's: the recommended mapper (then '|', or ',' for ties).
  const auto cell = probe.find('|', lu + row.size()) + 1;
  EXPECT_EQ(probe.substr(cell, fastest.size()), fastest) << probe << "\nfastest: " << fastest;
  EXPECT_NE(std::string("|,").find(probe[cell + fastest.size()]), std::string::npos) << probe;
}

}  // namespace
}  // namespace mapsim
