// A report as a reader sees it: `index.html` rendered by headless Chromium (Debian's chromium,
// installed by scripts/install-deps.sh). A script appended to a copy of the page reports what the
// browser laid out — the images decoded, the findings above the first chart, the page no wider
// than the window, the findings table's rows — and the test checks it against the database.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
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
  std::smatch match;
  EXPECT_TRUE(std::regex_search(text, match, std::regex("<pre id=\"probe\">([^<]*)</pre>")))
      << text.substr(0, 500);
  return match.size() > 1 ? match[1].str() : std::string();
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
  std::smatch images;
  ASSERT_TRUE(std::regex_search(probe, images, std::regex("\"images\":([0-9]+)")));
  EXPECT_GE(std::stoi(images[1].str()), 4);  // bars, static bars, agreement, summary

  // The findings table names, for LU under the flow model, the mapper with the shortest
  // replay in the database.
  exp::sql::Connection connection(db, exp::sql::Connection::Mode::ReadOnly);
  const auto fastest = connection.query_text(
      "SELECT mapper FROM results WHERE model = 'flow' AND workload LIKE 'npb:lu%' "
      "ORDER BY makespan_ps, mapper LIMIT 1");
  EXPECT_THAT(probe, HasSubstr("npb:lu:S:16:iterations=1|torus:2x2x4|flow"));
  EXPECT_TRUE(std::regex_search(
      probe, std::regex("npb:lu:S:16:iterations=1\\|torus:2x2x4\\|flow[^|]*\\|" + fastest + "[|,]")))
      << probe << "\nfastest: " << fastest;
}

}  // namespace
}  // namespace mapsim
