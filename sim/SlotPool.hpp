#pragma once
// Objects in flight (messages, packets, flows) live in slots addressed by 32-bit ids. Released
// ids are reused, so the storage is the peak number alive at once, not the number ever created,
// and ids stay small enough to ride in an engine event.

#include <cstdint>
#include <vector>

namespace mapsim::sim {

template <typename T>
class SlotPool {
 public:
  /// A slot holding T{}; its id stays valid until release(id).
  std::uint32_t acquire() {
    if (free_.empty()) {
      slots_.emplace_back();
      return static_cast<std::uint32_t>(slots_.size() - 1);
    }
    const std::uint32_t id = free_.back();
    free_.pop_back();
    slots_[id] = T{};
    return id;
  }
  void release(std::uint32_t id) { free_.push_back(id); }

  T& operator[](std::uint32_t id) { return slots_[id]; }
  const T& operator[](std::uint32_t id) const { return slots_[id]; }

 private:
  std::vector<T> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace mapsim::sim
