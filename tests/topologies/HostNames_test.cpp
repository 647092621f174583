// Host names: the default names, given names, lookup, and hosts files (spec option hosts=).

#include "topologies/HostNames.hpp"

#include <functional>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(HostNames, DefaultNamesArePaddedToTheLargestId) {
  // 64 nodes: ids 0..63, two digits.
  const HostNames names(64);
  EXPECT_TRUE(names.is_default());
  EXPECT_EQ(names.size(), 64);
  EXPECT_EQ(names.name(0), "node00");
  EXPECT_EQ(names.name(5), "node05");
  EXPECT_EQ(names.name(63), "node63");
  EXPECT_EQ(names.source(), "");
  // The width is the largest id's, not the node count's: 10 nodes are node0..node9, 11 need two.
  EXPECT_EQ(HostNames(10).name(9), "node9");
  EXPECT_EQ(HostNames(11).name(0), "node00");
  EXPECT_EQ(HostNames(1).name(0), "node0");
  EXPECT_EQ(HostNames(4096).name(4095), "node4095");
  EXPECT_EQ(HostNames(4097).name(7), "node0007");
}

TEST(HostNames, FindsDefaultNamesOfExactlyTheirWidth) {
  const HostNames names(64);
  EXPECT_EQ(names.find("node00"), 0);
  EXPECT_EQ(names.find("node63"), 63);
  EXPECT_EQ(names.find("node5"), std::nullopt);    // the name is node05
  EXPECT_EQ(names.find("node064"), std::nullopt);  // too wide
  EXPECT_EQ(names.find("node64"), std::nullopt);   // no node 64
  EXPECT_EQ(names.find("node0x"), std::nullopt);
  EXPECT_EQ(names.find("host05"), std::nullopt);
  EXPECT_EQ(names.find("5"), std::nullopt);  // ids are not names (Topology::node_named takes both)
}

TEST(HostNames, GivenNames) {
  const HostNames names({"cn-a", "cn_b", "login.1"}, "test");
  EXPECT_FALSE(names.is_default());
  EXPECT_EQ(names.size(), 3);
  EXPECT_EQ(names.name(2), "login.1");
  EXPECT_EQ(names.find("cn_b"), 1);
  EXPECT_EQ(names.find("node0"), std::nullopt);  // the defaults are gone
  EXPECT_EQ(names.source(), "test");
}

TEST(HostNames, RejectsBadAndRepeatedNames) {
  const auto make = [](std::vector<std::string> names) {
    return error_of([&] { (void)HostNames(std::move(names), "names from X"); });
  };
  auto message = make({"a", "b", "a"});
  EXPECT_THAT(message, HasSubstr("names from X"));
  EXPECT_THAT(message, HasSubstr("host 'a' is named twice (nodes 0 and 2)"));
  EXPECT_THAT(make({"a", ""}), HasSubstr("1 to 255 characters"));
  EXPECT_THAT(make({"a b"}), HasSubstr("'a b' holds ' '"));
  EXPECT_THAT(make({"42"}), HasSubstr("'42' is all digits"));
}

TEST(HostNames, CheckHostName) {
  EXPECT_NO_THROW(check_host_name("a.b-c_d9", "x"));
  EXPECT_NO_THROW(check_host_name(std::string(255, 'h'), "x"));
  EXPECT_THAT(error_of([] { check_host_name(std::string(256, 'h'), "where"); }),
              HasSubstr("where: a host name must have 1 to 255 characters"));
  EXPECT_THAT(error_of([] { check_host_name("n[1]", "where"); }), HasSubstr("holds '['"));
  EXPECT_THAT(error_of([] { check_host_name("0123", "where"); }), HasSubstr("all digits"));
}

class HostsFile : public ::testing::Test {
 protected:
  std::string read_error(const std::string& text, std::int32_t nodes) {
    const auto file = dir_.write("hosts.txt", text);
    return error_of([&] { (void)read_host_names(file, nodes); });
  }
  std::string at(int line) const {
    return fmt::format("{}:{}", (dir_.path() / "hosts.txt").string(), line);
  }
  testing::TempDir dir_;
};

TEST_F(HostsFile, OneNameOrHostlistPerLineWithComments) {
  const auto file = dir_.write("hosts.txt",
                               "# the login-free nodes of rack 1\n"
                               "cn[01-03]   # three\n"
                               "\n"
                               "  gpu1\t\r\n"
                               "rack[1-2]-n[1-2]\n");
  const auto names = read_host_names(file, 8);
  ASSERT_EQ(names.size(), 8);
  EXPECT_EQ(names.name(0), "cn01");
  EXPECT_EQ(names.name(3), "gpu1");
  EXPECT_EQ(names.name(4), "rack1-n1");
  EXPECT_EQ(names.name(7), "rack2-n2");
  EXPECT_EQ(names.find("rack2-n1"), 6);
  EXPECT_EQ(names.source(), "hosts file " + file.string());
}

TEST_F(HostsFile, WrongCount) {
  auto message = read_error("a\nb\n", 3);
  EXPECT_THAT(message, HasSubstr("hosts.txt: names 2 hosts; the machine has 3 nodes"));
  // The first name too many is found on its line.
  message = read_error("a\nn[1-5]\n", 3);
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("more hosts than the machine's 3 nodes"));
  EXPECT_THAT(read_error("# nothing\n", 2), HasSubstr("names 0 hosts"));
}

TEST_F(HostsFile, DuplicatesNameBothLines) {
  const auto message = read_error("n[1-3]\nm1\nn2\n", 5);
  EXPECT_THAT(message, HasSubstr(at(3)));
  EXPECT_THAT(message, HasSubstr("host 'n2' is named twice (first on line 1)"));
}

TEST_F(HostsFile, BadNamesAndHostlists) {
  auto message = read_error("a\nb@c\n", 2);
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("'b@c' holds '@'"));
  message = read_error("a\n17\n", 2);
  EXPECT_THAT(message, HasSubstr(at(2)));
  EXPECT_THAT(message, HasSubstr("'17' is all digits"));
  message = read_error("n[1-\n", 2);
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("not closed"));
  message = read_error("a b\n", 2);
  EXPECT_THAT(message, HasSubstr(at(1)));
  EXPECT_THAT(message, HasSubstr("holds a space"));
}

TEST_F(HostsFile, DirectoryAndMissingFile) {
  EXPECT_THAT(error_of([&] { (void)read_host_names(dir_.path(), 2); }),
              HasSubstr("is a directory"));
  EXPECT_THAT(error_of([&] { (void)read_host_names(dir_.path() / "none.txt", 2); }),
              HasSubstr("none.txt: cannot be opened"));
}

TEST_F(HostsFile, ThroughTheSpec) {
  const auto file = dir_.write("hosts.txt", "a[1-7]\nlast\n");
  const auto spec = "torus:2x2x2:hosts=" + file.string();
  const auto machine = make_topology(spec);
  EXPECT_EQ(machine->host_name(7), "last");
  EXPECT_EQ(machine->spec(), spec);  // the hosts file stays in the canonical spec
  EXPECT_EQ(machine->node_named("a3", "--hops A"), 2);
  EXPECT_EQ(machine->node_named("2", "--hops A"), 2);
  // A machine without a hosts file has the default names.
  EXPECT_EQ(make_topology("torus:4x4x4")->host_name(63), "node63");
  // Errors name the spec.
  const auto message = error_of([&] { (void)make_topology("mesh:3:hosts=" + file.string()); });
  EXPECT_THAT(message, HasSubstr("topology spec 'mesh:3:hosts="));
  EXPECT_THAT(message, HasSubstr("more hosts than the machine's 3 nodes"));
}

}  // namespace
}  // namespace mapsim::topo
