#include "topologies/LinkClass.hpp"

#include <set>

#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::topo {
namespace {

TEST(LinkClass, EveryClassHasAUniqueNameAndPositiveDefaults) {
  std::set<std::string_view> names;
  ASSERT_EQ(static_cast<int>(link_classes().size()), kLinkClassCount);
  for (int i = 0; i < kLinkClassCount; ++i) {
    const auto& info = link_classes()[static_cast<std::size_t>(i)];
    EXPECT_EQ(static_cast<int>(info.id), i) << "table out of enum order";
    EXPECT_TRUE(names.insert(info.name).second);
    EXPECT_GT(info.defaults.bandwidth, 0);
    EXPECT_GT(info.defaults.latency, 0);
    EXPECT_EQ(link_class_from_name(info.name), info.id);
    EXPECT_EQ(name(info.id), info.name);
  }
}

TEST(LinkClass, GridDefaultIsDesignValue) {
  // docs/models.md: torus/mesh links 25 GB/s and 100 ns per hop.
  const LinkTable table;
  EXPECT_DOUBLE_EQ(table[LinkClass::Grid].bandwidth, 25e9);
  EXPECT_DOUBLE_EQ(table[LinkClass::Grid].latency, 100e-9);
}

TEST(LinkClass, OverrideReplacesOneClassOnly) {
  const LinkTable defaults;
  const auto table = defaults.with(LinkClass::HaecWireless, {1e9, 1e-6});
  EXPECT_DOUBLE_EQ(table[LinkClass::HaecWireless].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(table[LinkClass::HaecWireless].latency, 1e-6);
  EXPECT_DOUBLE_EQ(table[LinkClass::Grid].bandwidth, defaults[LinkClass::Grid].bandwidth);
  EXPECT_DOUBLE_EQ(defaults[LinkClass::HaecWireless].bandwidth,
                   12.5e9);  // the original is unchanged
}

TEST(LinkClass, RejectsUnknownNameListingValidOnes) {
  try {
    (void)link_class_from_name("ethernet");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'ethernet'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("haec-wireless"), std::string::npos);
  }
}

TEST(LinkClass, RejectsNonPositiveBandwidthAndNegativeLatency) {
  const LinkTable table;
  EXPECT_THROW((void)table.with(LinkClass::Grid, {0, 1e-9}), InputError);
  EXPECT_THROW((void)table.with(LinkClass::Grid, {-5, 1e-9}), InputError);
  EXPECT_THROW((void)table.with(LinkClass::Grid, {1e9, -1e-9}), InputError);
  EXPECT_NO_THROW((void)table.with(LinkClass::Grid, {1e9, 0}));
}

}  // namespace
}  // namespace mapsim::topo
