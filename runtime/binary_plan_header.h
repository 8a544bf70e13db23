// The binary plan's fixed 64-byte header and checksum (layout in
// runtime/binary_plan.h), shared by its writer and reader.
#ifndef QNNC_RUNTIME_BINARY_PLAN_HEADER_H_
#define QNNC_RUNTIME_BINARY_PLAN_HEADER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <cstring>

#include "runtime/binary_plan.h"

namespace qnnc::runtime {

struct PlanHeader {
  uint32_t version = kBinaryPlanVersion;
  uint64_t graph_offset = 0, graph_size = 0;
  uint64_t data_offset = 0, data_size = 0;
  uint64_t checksum = 0;
};

// Field offsets in the header; the host is little-endian, as the file.
inline void WritePlanHeader(const PlanHeader& h, char* out) {
  std::memset(out, 0, kBinaryPlanHeaderBytes);
  std::memcpy(out, kBinaryPlanMagic, 8);
  std::memcpy(out + 8, &h.version, 4);
  std::memcpy(out + 16, &h.graph_offset, 8);
  std::memcpy(out + 24, &h.graph_size, 8);
  std::memcpy(out + 32, &h.data_offset, 8);
  std::memcpy(out + 40, &h.data_size, 8);
  std::memcpy(out + 48, &h.checksum, 8);
}

inline PlanHeader ReadPlanHeader(const uint8_t* in) {
  PlanHeader h;
  std::memcpy(&h.version, in + 8, 4);
  std::memcpy(&h.graph_offset, in + 16, 8);
  std::memcpy(&h.graph_size, in + 24, 8);
  std::memcpy(&h.data_offset, in + 32, 8);
  std::memcpy(&h.data_size, in + 40, 8);
  std::memcpy(&h.checksum, in + 48, 8);
  return h;
}

// XXH3-64 of every byte after the header (`size` counts the header too).
uint64_t PlanChecksum(const void* plan, uint64_t size);
// The same checksum of bytes that follow the header in pieces: `pieces`
// hands each, in file order, to the function it is given (a plan written
// from where its bytes are).
using PlanPieceSink = std::function<void(const char* bytes, size_t size)>;
uint64_t PlanChecksumOfPieces(const std::function<void(const PlanPieceSink&)>& pieces);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_BINARY_PLAN_HEADER_H_
