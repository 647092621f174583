#pragma once
// Invariants over every ordered node pair of small instances of a topology kind, shared by the
// tests of every kind: each kind's test file instantiates EveryPair (and DistinctLinks, unless the
// kind has parallel links) with its small instances and SpecName as the name generator. The tests
// themselves are in EveryPair.cpp, which every test binary that instantiates them compiles.

#include <cctype>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "topologies/TopologySpec.hpp"

namespace mapsim::topo {

class EveryPair : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { topology_ = make_topology(GetParam()); }
  std::unique_ptr<Topology> topology_;
};

/// A test name made of the spec's letters and digits.
inline std::string SpecName(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

/// Machines without parallel links: no two links join the same vertices in the same direction.
class DistinctLinks : public EveryPair {};

}  // namespace mapsim::topo
