// The SimGrid platform of a machine (topologies/SimgridPlatform.hpp): well-formed XML with the
// machine's hosts in node order; a native cluster exactly where SimGrid's routes and links are
// mapsim's, explicit routes otherwise, whose links carry their class's bandwidth and latency and
// whose routes are mapsim's link by link. SimGrid itself is not needed (bench/smpi_compare.sh
// runs SMPI on these files).

#include "topologies/SimgridPlatform.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "tests/topologies/EveryPair.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::HasSubstr;

// ---- A small XML reader: elements, attributes, comments, the prolog; throws when malformed ----

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;

  [[nodiscard]] std::vector<const Element*> all(const std::string& child) const {
    std::vector<const Element*> out;
    for (const auto& c : children) {
      if (c.name == child) out.push_back(&c);
    }
    return out;
  }
  [[nodiscard]] const std::string& at(const std::string& key) const {
    const auto found = attributes.find(key);
    if (found == attributes.end()) throw std::runtime_error(name + " has no attribute " + key);
    return found->second;
  }
};

class XmlReader {
 public:
  explicit XmlReader(std::string text) : text_(std::move(text)) {}

  Element document() {
    skip_misc();
    auto root = element();
    skip_misc();
    if (pos_ != text_.size()) fail("text after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("XML: " + what + " at offset " + std::to_string(pos_));
  }
  bool starts(std::string_view s) const { return text_.compare(pos_, s.size(), s) == 0; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void skip_past(std::string_view end) {
    const auto at = text_.find(end, pos_);
    if (at == std::string::npos) fail("unterminated markup");
    pos_ = at + end.size();
  }
  // Declarations, DOCTYPE, comments and white space between elements.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) {
        skip_past("?>");
      } else if (starts("<!--")) {
        const auto end = text_.find("-->", pos_ + 4);
        if (end == std::string::npos) fail("unterminated comment");
        if (text_.substr(pos_ + 4, end - pos_ - 4).find("--") != std::string::npos)
          fail("'--' inside a comment");
        pos_ = end + 3;
      } else if (starts("<!DOCTYPE")) {
        skip_past(">");
      } else {
        return;
      }
    }
  }
  std::string name() {
    const auto start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '-' || text_[pos_] == ':'))
      ++pos_;
    if (pos_ == start) fail("a name expected");
    return text_.substr(start, pos_ - start);
  }
  static std::string unescape(const std::string& raw) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        if (raw[i] == '<') throw std::runtime_error("XML: '<' in an attribute value");
        out += raw[i];
        continue;
      }
      const auto end = raw.find(';', i);
      if (end == std::string::npos) throw std::runtime_error("XML: unterminated entity");
      static const std::map<std::string, char> kEntities{
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      const auto entity = kEntities.find(raw.substr(i + 1, end - i - 1));
      if (entity == kEntities.end()) throw std::runtime_error("XML: unknown entity in " + raw);
      out += entity->second;
      i = end;
    }
    return out;
  }
  Element element() {
    if (!starts("<")) fail("'<' expected");
    ++pos_;
    Element e;
    e.name = name();
    for (;;) {
      skip_space();
      if (starts("/>")) {
        pos_ += 2;
        return e;
      }
      if (starts(">")) {
        ++pos_;
        break;
      }
      const auto key = name();
      skip_space();
      if (!starts("=")) fail("'=' expected after " + key);
      ++pos_;
      skip_space();
      if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) fail("quote");
      const char quote = text_[pos_++];
      const auto end = text_.find(quote, pos_);
      if (end == std::string::npos) fail("unterminated attribute");
      if (!e.attributes.emplace(key, unescape(text_.substr(pos_, end - pos_))).second)
        fail("attribute " + key + " twice");
      pos_ = end + 1;
    }
    for (;;) {
      skip_misc();
      if (starts("</")) {
        pos_ += 2;
        if (name() != e.name) fail("mismatched end tag of " + e.name);
        skip_space();
        if (!starts(">")) fail("'>' expected");
        ++pos_;
        return e;
      }
      if (pos_ >= text_.size()) fail("unterminated element " + e.name);
      if (!starts("<")) fail("text inside " + e.name);
      e.children.push_back(element());
    }
  }

  std::string text_;
  std::size_t pos_ = 0;
};

// ---- Helpers ----

constexpr double kRelative = 1e-12;  // numbers are written with 15 significant digits

/// "25000000000Bps" -> 2.5e10; "1e-07s" -> 1e-7.
double value_of(const std::string& text, const std::string& unit) {
  EXPECT_TRUE(text.ends_with(unit)) << text;
  return std::stod(text.substr(0, text.size() - unit.size()));
}

/// The platform's name of link or channel `id`.
std::string link_id(LinkId id) {
  return fmt::format("l{}", id);
}

struct Written {
  SimgridPlatform platform;
  Element root;
};

Written write(const Topology& t, const LinkTable& links, PlatformOptions options = {}) {
  SimgridPlatform platform(t, links, std::move(options));
  std::ostringstream out;
  platform.write(out);
  auto root = XmlReader(out.str()).document();
  EXPECT_EQ(root.name, "platform");
  EXPECT_EQ(root.at("version"), "4.1");
  return {std::move(platform), std::move(root)};
}

/// Every class the machine has at one bandwidth and latency: what a native cluster needs.
LinkTable uniform(const Topology& t, LinkParams p = {25e9, 100e-9}) {
  LinkTable table;
  const auto counts = t.links_per_class();
  for (const auto& info : link_classes()) {
    if (counts[static_cast<std::size_t>(info.id)] > 0) table = table.with(info.id, p);
  }
  return table;
}

/// Checks an explicit platform against the machine: hosts, links and every route.
void expect_explicit(const Topology& t, const LinkTable& table, const Written& w) {
  ASSERT_EQ(w.platform.layout(), PlatformLayout::Explicit);
  ASSERT_EQ(w.root.children.size(), 1u);
  const auto& zone = w.root.children.front();
  EXPECT_EQ(zone.name, "zone");
  EXPECT_EQ(zone.at("routing"), "Full");

  const auto hosts = zone.all("host");
  ASSERT_EQ(hosts.size(), static_cast<std::size_t>(t.node_count()));
  for (NodeId n = 0; n < t.node_count(); ++n) {
    EXPECT_EQ(hosts[static_cast<std::size_t>(n)]->at("id"), t.host_name(n)) << n;
    EXPECT_EQ(hosts[static_cast<std::size_t>(n)]->at("core"), std::to_string(t.cores_per_node()));
  }

  // Links l<id>: mapsim's links, then l<L + n>, the intra-node channel of used host n.
  std::map<std::string, const Element*> links;
  for (const auto* link : zone.all("link")) links[link->at("id")] = link;
  const auto& used = w.platform.hosts();
  ASSERT_EQ(links.size(), static_cast<std::size_t>(t.link_count()) + used.size());
  const auto expect_params = [&](LinkId id, const LinkParams& p, const std::string& what) {
    const auto found = links.find(link_id(id));
    ASSERT_NE(found, links.end()) << what;
    EXPECT_NEAR(value_of(found->second->at("bandwidth"), "Bps"), p.bandwidth,
                kRelative * p.bandwidth)
        << what;
    EXPECT_NEAR(value_of(found->second->at("latency"), "s"), p.latency, kRelative * p.latency)
        << what;
    // SimGrid's default, SHARED: one link per direction, shared by its flows like mapsim's.
    EXPECT_EQ(found->second->attributes.count("sharing_policy"), 0u) << what;
  };
  for (LinkId id = 0; id < t.link_count(); ++id) {
    expect_params(id, table[t.link(id).link_class], "link " + std::to_string(id));
  }
  for (const auto n : used) {
    expect_params(t.link_count() + n, table[LinkClass::IntraNode], "loopback of " + t.host_name(n));
  }

  // A route per ordered pair of used hosts, mapsim's links in order; the loopback from a host
  // to itself.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> routes;
  for (const auto* route : zone.all("route")) {
    EXPECT_EQ(route->at("symmetrical"), "NO");
    std::vector<std::string> ids;
    for (const auto* link : route->all("link_ctn")) ids.push_back(link->at("id"));
    EXPECT_TRUE(routes.emplace(std::pair{route->at("src"), route->at("dst")}, ids).second);
  }
  ASSERT_EQ(routes.size(), used.size() * used.size());
  for (const auto a : used) {
    for (const auto b : used) {
      std::vector<std::string> expected;
      if (a == b) {
        expected.push_back(link_id(t.link_count() + a));
      } else {
        for (const auto l : t.route(a, b)) expected.push_back(link_id(l));
      }
      EXPECT_EQ((routes[{t.host_name(a), t.host_name(b)}]), expected)
          << t.spec() << ": " << a << " -> " << b;
    }
  }
}

/// The one <cluster> of a native platform.
const Element& cluster_of(const Written& w) {
  EXPECT_EQ(w.root.children.size(), 1u);
  EXPECT_EQ(w.root.children.front().name, "cluster");
  return w.root.children.front();
}

bool any_note_has(const SimgridPlatform& p, const std::string& text) {
  for (const auto& note : p.notes()) {
    if (note.find(text) != std::string::npos) return true;
  }
  return false;
}

/// At one link setting, on `hosts` (empty: all), `spec` gets explicit routes, a note saying `why`.
void expect_explicit_because(const std::string& spec, const std::string& why,
                             std::vector<NodeId> hosts = {}) {
  const auto t = make_topology(spec);
  const auto table = uniform(*t);
  PlatformOptions options;
  options.hosts = std::move(hosts);
  const auto w = write(*t, table, options);
  EXPECT_TRUE(any_note_has(w.platform, why)) << spec;
  expect_explicit(*t, table, w);
}

// ---- Explicit routes, on a small machine of every kind ----

class ExplicitPlatform : public ::testing::TestWithParam<std::string> {};

TEST_P(ExplicitPlatform, HostsLinksAndRoutesAreTheMachines) {
  const auto t = make_topology(GetParam());
  // The defaults: classes differ, as on the machines modelled.
  const LinkTable table;
  PlatformOptions options;
  options.choice = PlatformChoice::Explicit;
  expect_explicit(*t, table, write(*t, table, options));
}

TEST_P(ExplicitPlatform, OnlyTheUsedHostsAreRouted) {
  const auto t = make_topology(GetParam());
  const LinkTable table;
  PlatformOptions options;
  options.choice = PlatformChoice::Explicit;
  options.hosts = {t->node_count() - 1, 0, t->node_count() - 1};  // any order, repeats
  const auto w = write(*t, table, options);
  EXPECT_EQ(w.platform.hosts(), (std::vector<NodeId>{0, t->node_count() - 1}));
  expect_explicit(*t, table, w);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, ExplicitPlatform,
                         ::testing::Values("mesh:3x2", "torus:4x3", "torus:2x2:cores=2",
                                           "haec:2x2x2", "tianhe3:1x2:nodes=4",
                                           "fattree:2;2,3;1,2;2,2", "dragonfly:3,2,2,1",
                                           "dragonfly:5,2,1,2:global=circulant",
                                           "cascade:2,2;2,1;2,2;2"),
                         SpecName);

TEST(SimgridPlatform, SlurmTreeHasExplicitRoutesWithItsHostNames) {
  const auto t =
      make_topology(std::string("slurm:") + MAPSIM_TEST_DATA_DIR + "/slurm/two-level.conf");
  const auto table = uniform(*t);
  const auto w = write(*t, table);
  EXPECT_THAT(w.platform.notes().front(), HasSubstr("no cluster for a slurm"));
  expect_explicit(*t, table, w);
}

// ---- Native clusters ----

TEST(SimgridPlatform, TorusIsSimgridsTorusWhereRoutesAgree) {
  // 3 x 5: odd rings have no half-ring tie, so SimGrid's TorusZone routes as mapsim does.
  const auto t = make_topology("torus:3x5");
  const auto w = write(*t, uniform(*t));
  EXPECT_EQ(w.platform.layout(), PlatformLayout::Torus);
  EXPECT_EQ(w.platform.description(), "SimGrid TORUS cluster 3,5");
  const auto& c = cluster_of(w);
  EXPECT_EQ(c.at("topology"), "TORUS");
  EXPECT_EQ(c.at("topo_parameters"), "3,5");
  EXPECT_EQ(c.at("radical"), "0-14");
  EXPECT_EQ(c.at("speed"), "1000000000f");
  EXPECT_DOUBLE_EQ(value_of(c.at("bw"), "Bps"), 25e9);
  EXPECT_DOUBLE_EQ(value_of(c.at("lat"), "s"), 100e-9);
  // The loopback is the intra-node channel (default 20 GB/s, 200 ns).
  EXPECT_DOUBLE_EQ(value_of(c.at("loopback_bw"), "Bps"), 20e9);
  EXPECT_DOUBLE_EQ(value_of(c.at("loopback_lat"), "s"), 200e-9);
  // Default names node00 .. node14 are node0 .. node14 in a cluster, which does not pad.
  EXPECT_EQ(c.at("prefix"), "node");
  EXPECT_EQ(c.at("suffix"), "");
  EXPECT_EQ(w.platform.host_name(7), "node7");
  EXPECT_TRUE(any_note_has(w.platform, "node00 ... node14 are node0 ... node14"));
}

// PlatformOptions::energy: every link carries SimGrid's wattage_range of its class (idle:busy),
// on explicit routes (a cluster's links take no property); the per-bit term is noted as left out.
TEST(SimgridPlatform, EnergyPutsTheWattageRangeOnEveryLink) {
  const auto t = make_topology("torus:3x5");
  const auto links = uniform(*t)
                         .with_energy(LinkClass::Grid, {5, 1.5, 3})
                         .with_energy(LinkClass::IntraNode, {0, 0.25, 2});
  PlatformOptions options;
  options.energy = true;
  const auto w = write(*t, links, options);
  EXPECT_EQ(w.platform.layout(), PlatformLayout::Explicit);
  EXPECT_TRUE(w.platform.energy());
  EXPECT_TRUE(any_note_has(w.platform, "wattage_range"));
  EXPECT_TRUE(any_note_has(w.platform, "no energy per bit"));
  ASSERT_EQ(w.root.children.size(), 1U);
  std::size_t grid = 0;
  std::size_t channels = 0;
  for (const auto& e : w.root.children[0].children) {
    if (e.name != "link") continue;
    ASSERT_EQ(e.children.size(), 1U) << e.at("id");
    const auto& prop = e.children[0];
    EXPECT_EQ(prop.name, "prop");
    EXPECT_EQ(prop.at("id"), "wattage_range");
    const auto id = std::stoi(e.at("id").substr(1));
    if (id < t->link_count()) {
      EXPECT_EQ(prop.at("value"), "1.5:3");
      ++grid;
    } else {
      EXPECT_EQ(prop.at("value"), "0.25:2");
      ++channels;
    }
  }
  EXPECT_EQ(grid, static_cast<std::size_t>(t->link_count()));
  EXPECT_EQ(channels, 15U);
  // A native cluster cannot carry them.
  options.choice = PlatformChoice::Native;
  EXPECT_THROW((void)SimgridPlatform(*t, links, options), InputError);
}

TEST(SimgridPlatform, TorusHalfRingTieFromTheMiddleToZeroNeedsExplicitRoutes) {
  // SimGrid goes the negative way from x = 2 to x = 0 of a 4-ring; mapsim the positive way.
  expect_explicit_because("torus:4x2", "negative way from coordinate 2 to 0", {2, 0});
  const auto t = make_topology("torus:4x2");
  const auto table = uniform(*t);
  PlatformOptions far;
  far.hosts = {2, 0};
  // Hosts 1 and 3 (and a size-2 dimension) have no such pair: the native TORUS.
  PlatformOptions near;
  near.hosts = {1, 3, 5, 7};
  EXPECT_EQ(write(*t, table, near).platform.layout(), PlatformLayout::Torus);
  // Forced, the cluster says where its routes differ.
  far.choice = PlatformChoice::Native;
  const auto forced = write(*t, table, far);
  EXPECT_EQ(forced.platform.layout(), PlatformLayout::Torus);
  EXPECT_TRUE(any_note_has(forced.platform, "routes differ"));
}

TEST(SimgridPlatform, FatTreeIsSimgridsFatTreeWithParallelLinksOnlyAtTheTop) {
  const auto t = make_topology("fattree:2;4,4;1,2;1,2");
  const auto w = write(*t, uniform(*t));
  EXPECT_EQ(w.platform.layout(), PlatformLayout::FatTree);
  const auto& c = cluster_of(w);
  EXPECT_EQ(c.at("topology"), "FAT_TREE");
  EXPECT_EQ(c.at("topo_parameters"), "2;4,4;1,2;1,2");
  EXPECT_EQ(c.at("radical"), "0-15");
}

TEST(SimgridPlatform, FatTreeParallelLinksBelowTheTopNeedExplicitRoutes) {
  expect_explicit_because("fattree:2;4,4;1,2;2,1", "P1 = 2 parallel links below the top level");
}

TEST(SimgridPlatform, FatTreeWithItsDefaultClassesNeedsExplicitRoutes) {
  // ft-host 130 ns, ft-1 150 ns: a cluster has one latency.
  const auto t = make_topology("fattree:k-ary-n-tree:2,2");
  const LinkTable defaults;
  const auto w = write(*t, defaults);
  EXPECT_TRUE(any_note_has(w.platform, "link classes differ"));
  expect_explicit(*t, defaults, w);
  PlatformOptions native;
  native.choice = PlatformChoice::Native;
  try {
    (void)SimgridPlatform(*t, defaults, native);
    FAIL() << "a native cluster with two latencies";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--link"));
  }
}

TEST(SimgridPlatform, CascadeIsSimgridsDragonflyWhereItsRoutesAgree) {
  // cascade:2,1;2,1;2,1;2: nodes ((g C + c) R + b) N + n. Chassis 0 of each group only: no
  // route leaves a chassis other than 0, so SimGrid's DRAGONFLY routes as the machine.
  const auto t = make_topology("cascade:2,1;2,1;2,1;2");
  const auto table = uniform(*t);
  PlatformOptions chassis0;
  chassis0.hosts = {0, 1, 2, 3, 8, 9, 10, 11};
  const auto w = write(*t, table, chassis0);
  EXPECT_EQ(w.platform.layout(), PlatformLayout::Dragonfly);
  const auto& c = cluster_of(w);
  EXPECT_EQ(c.at("topology"), "DRAGONFLY");
  EXPECT_EQ(c.at("topo_parameters"), "2,1;2,1;2,1;2");
  // Nodes 4 (chassis 1, blade 0) and 6 (chassis 1, blade 1) of group 0: SimGrid's route forgets
  // the chassis.
  expect_explicit_because("cascade:2,1;2,1;2,1;2", "continues from chassis 0", {4, 6});
  // One blade per group used: no green link, the cluster again.
  PlatformOptions one_blade;
  one_blade.hosts = {4, 5, 12};
  EXPECT_EQ(write(*t, table, one_blade).platform.layout(), PlatformLayout::Dragonfly);
}

TEST(SimgridPlatform, CascadeLanesNeedExplicitRoutes) {
  expect_explicit_because("cascade:2,2;1,1;2,1;1", "lanes of their own");
}

TEST(SimgridPlatform, SeveralCoresPerNodeNeedExplicitRoutes) {
  // A cluster's loopback is FATPIPE; mapsim's intra-node channel is shared.
  expect_explicit_because("torus:3x3:cores=2", "FATPIPE");
}

TEST(SimgridPlatform, ClusterKeepsHostNamesOfPrefixNumberSuffix) {
  const mapsim::testing::TempDir dir;
  const auto names = dir.write("hosts", "cn[0-8].lab\n");
  const auto t = make_topology("torus:3x3:hosts=" + names.string());
  const auto w = write(*t, uniform(*t));
  const auto& c = cluster_of(w);
  EXPECT_EQ(c.at("prefix"), "cn");
  EXPECT_EQ(c.at("suffix"), ".lab");
  EXPECT_EQ(w.platform.host_name(4), "cn4.lab");
  EXPECT_FALSE(any_note_has(w.platform, "zero padding"));
}

TEST(SimgridPlatform, PerMessageRoutingIsWrittenWithMinimalRoutes) {
  const auto t = make_topology("dragonfly:3,2,1,1:routing=valiant");
  const LinkTable table;
  const auto w = write(*t, table);
  EXPECT_TRUE(any_note_has(w.platform, "routing=valiant"));
  expect_explicit(*t, table, w);
}

// ---- Refusals ----

TEST(SimgridPlatform, ExplicitRoutesBeyondTheLimitAreRefused) {
  const auto t = make_topology("mesh:32x17");  // 544 hosts, no SimGrid cluster
  try {
    (void)SimgridPlatform(*t, LinkTable{}, {});
    FAIL() << "explicit routes between 544 hosts";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("544 hosts"));
    EXPECT_THAT(e.what(), HasSubstr(std::to_string(kMaxExplicitHosts)));
    EXPECT_THAT(e.what(), HasSubstr("no cluster for a mesh"));
  }
  // The same machine is fine when the mapping uses few of its hosts.
  PlatformOptions few;
  few.hosts = {0, 543};
  EXPECT_EQ(SimgridPlatform(*t, LinkTable{}, few).layout(), PlatformLayout::Explicit);
}

TEST(SimgridPlatform, KindsWithoutClusterCannotBeNative) {
  PlatformOptions native;
  native.choice = PlatformChoice::Native;
  for (const char* spec : {"dragonfly:3,2,1,1", "mesh:2x2", "haec:2x2x2"}) {
    const auto t = make_topology(spec);
    try {
      (void)SimgridPlatform(*t, uniform(*t), native);
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("no native SimGrid cluster")) << spec;
    }
  }
  // An allocation keeps the machine: a torus with one is still SimGrid's TORUS.
  const auto allocated = make_topology("torus:3x3:allocation=0-1");
  EXPECT_EQ(SimgridPlatform(*allocated, uniform(*allocated), native).layout(),
            PlatformLayout::Torus);
}

TEST(SimgridPlatform, HostsOutsideTheMachineAreRefused) {
  const auto t = make_topology("torus:2x2");
  PlatformOptions options;
  options.hosts = {4};
  EXPECT_THROW((void)SimgridPlatform(*t, LinkTable{}, options), InputError);
}

TEST(SimgridPlatform, LayoutNamesParse) {
  EXPECT_EQ(platform_choice_from_name("auto"), PlatformChoice::Auto);
  EXPECT_EQ(platform_choice_from_name("native"), PlatformChoice::Native);
  EXPECT_EQ(platform_choice_from_name("explicit"), PlatformChoice::Explicit);
  try {
    (void)platform_choice_from_name("cluster");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("auto, native, explicit"));
  }
}

TEST(SimgridPlatform, ReaderRejectsMalformedXml) {
  // The reader these tests rely on does reject what SimGrid would.
  EXPECT_THROW((void)XmlReader("<a><b></a>").document(), std::runtime_error);
  EXPECT_THROW((void)XmlReader("<a x=\"1\" x=\"2\"/>").document(), std::runtime_error);
  EXPECT_THROW((void)XmlReader("<!-- a -- b --><a/>").document(), std::runtime_error);
  EXPECT_THROW((void)XmlReader("<a/><b/>").document(), std::runtime_error);
  EXPECT_EQ(XmlReader("<?xml version='1.0'?><a k='&amp;'/>").document().at("k"), "&");
}

}  // namespace
}  // namespace mapsim::topo
