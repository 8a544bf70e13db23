#include "kernels/layout/take.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/layout.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/testing/random_tensor.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;
using testing::RandomBytes;

Tensor Indices(const Shape& shape, const std::vector<int64_t>& values) {
  return Tensor::FromVector<int64_t>(shape, values);
}

// Every axis, 1-D and 2-D indices (repeats included), three dtypes, and a
// planned output written in place.
TEST(TakeConstant, GivesTheReferencesBytes) {
  testing::TwoThreads two;
  std::mt19937 rng(7);
  for (DType dt : {DType::kU8, DType::kF32, DType::kI32}) {
    const Shape shape = {2, 5, 6, 7};
    Tensor x = RandomBytes(dt, shape, rng);
    for (int64_t axis = 0; axis < 4; ++axis) {
      for (const Shape& ishape : {Shape{3}, Shape{2, 2}}) {
        std::vector<int64_t> idx;
        for (int i = 0; i < (ishape.size() == 1 ? 3 : 4); ++i) idx.push_back(rng() % shape[axis]);
        auto want = reference::Take(x, Indices(ishape, idx), axis);
        ASSERT_TRUE(want.ok()) << want.status();
        for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
          Tensor got = *Tensor::Create(dt, want->shape());
          const void* at = got.raw_data();
          ASSERT_TRUE(TakeConstant(x, idx, ishape, axis, &got, pool).ok());
          EXPECT_EQ(got.raw_data(), at);
          EXPECT_TRUE(got.BitwiseEquals(*want)) << "axis " << axis;
        }
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(TakeConstant(Tensor::Zeros(DType::kU8, {2, 3}), {3}, {1}, 1, &out, nullptr).ok());
  EXPECT_FALSE(TakeConstant(Tensor::Zeros(DType::kU8, {2, 3}), {0}, {1}, 2, &out, nullptr).ok());
}

// The channel shuffle of ShuffleNet (C = 48 and 116, two groups, then its
// halves), random picks with repeats, and a whole-block copy, in blocks of
// 16 (the vpshufb paths, at every level the host allows) and 4 (the
// element loop), u8 and f32, against the reference through NCHW; padding
// lanes are 0.
TEST(BlockedChannelGather, GivesTheReferencesChannels) {
  testing::TwoThreads two;
  std::mt19937 rng(11);
  auto shuffle = [](int64_t c) {
    std::vector<int64_t> idx;
    for (int64_t j = 0; j < c; ++j) idx.push_back((j % 2) * (c / 2) + j / 2);
    return idx;
  };
  struct Case {
    int64_t channels;
    std::vector<int64_t> indices;
  };
  std::vector<Case> cases = {{48, shuffle(48)}, {116, shuffle(116)}, {32, {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}}};
  {
    const std::vector<int64_t> all = shuffle(116);
    std::vector<int64_t> half(all.begin() + 58, all.end());
    cases.push_back({116, half});
    std::vector<int64_t> random;
    for (int i = 0; i < 37; ++i) random.push_back(static_cast<int64_t>(rng() % 70) - 35);  // negative too
    cases.push_back({35, random});
  }
  testing::AtEveryIsaLevel([&] {
    for (DType dt : {DType::kU8, DType::kF32}) {
      for (int64_t block : {16, 4}) {
        for (const Case& c : cases) {
          // 63 pixels: a ragged vector tail; 195: a second pixel tile (128 per task).
          for (auto [h, w] : {std::pair<int64_t, int64_t>{9, 7}, {15, 13}}) {
          Tensor x = RandomBytes(dt, {2, c.channels, h, w}, rng);
          std::vector<int64_t> idx = c.indices;
          auto want = reference::Take(x, Indices({static_cast<int64_t>(idx.size())}, idx), 1);
          ASSERT_TRUE(want.ok()) << want.status();
          auto blocked = spatial_pack::ToBlocked(x, block, 0, nullptr);
          ASSERT_TRUE(blocked.ok());
          auto gather = BlockedChannelGather::Make(idx, c.channels, block);
          ASSERT_TRUE(gather.ok()) << gather.status();
          for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
            Tensor got;
            ASSERT_TRUE(gather->Run(*blocked, &got, pool).ok());
            auto want_blocked = spatial_pack::ToBlocked(*want, block, 0, nullptr);
            ASSERT_TRUE(want_blocked.ok());
            EXPECT_TRUE(got.BitwiseEquals(*want_blocked)) << c.channels << " channels, block " << block;
          }
          }
        }
      }
    }
  });
  EXPECT_FALSE(BlockedChannelGather::Make({48}, 48, 16).ok());
  EXPECT_FALSE(BlockedChannelGather::Make({-49}, 48, 16).ok());
  auto g = BlockedChannelGather::Make({0, 1}, 48, 16);
  ASSERT_TRUE(g.ok());
  Tensor out;
  EXPECT_FALSE(g->Run(Tensor::Zeros(DType::kU8, {1, 2, 3, 3, 16}), &out, nullptr).ok());  // 48 needs 3 blocks
}

// A blocked quantized concat: channel counts that are not multiples of the
// block (Inception's 16, 16, 24 and 8; ShuffleNet's 24 and 24), inputs with
// and without tables, at every level the host allows, blocks of 16 and 4,
// against NCHW concat then blocking.
TEST(BlockedChannelGather, ConcatPacksLanesThroughTables) {
  testing::TwoThreads two;
  std::mt19937 rng(45);
  testing::AtEveryIsaLevel([&] {
    for (int64_t block : {16, 4}) {
      for (const std::vector<int64_t>& channels : {std::vector<int64_t>{16, 16, 24, 8}, std::vector<int64_t>{24, 24},
                                                   std::vector<int64_t>{5, 3, 17}, std::vector<int64_t>{32}}) {
        std::vector<Tensor> nchw, blocked;
        std::vector<BlockedChannelGather::Input> inputs;
        for (size_t i = 0; i < channels.size(); ++i) {
          nchw.push_back(RandomBytes(DType::kU8, {2, channels[i], 3, 23}, rng));
          blocked.push_back(*spatial_pack::ToBlocked(nchw.back(), block, 0));
          std::vector<uint8_t> table;
          if (i % 2 == 1) {
            for (int b = 0; b < 256; ++b) table.push_back(static_cast<uint8_t>(rng()));
            for (uint8_t& v : nchw.back().span<uint8_t>()) v = table[v];  // the expected input: mapped
          }
          inputs.push_back({channels[i], table});
        }
        auto concat = reference::Concat(nchw, 1);
        ASSERT_TRUE(concat.ok());
        const Tensor want = *spatial_pack::ToBlocked(*concat, block, 0);
        auto gather = BlockedChannelGather::Concat(inputs, block);
        ASSERT_TRUE(gather.ok()) << gather.status();
        for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
          Tensor got;
          ASSERT_TRUE(gather->Run(blocked, &got, p).ok());
          EXPECT_TRUE(got.BitwiseEquals(want)) << channels.size() << " inputs, block " << block;
        }
      }
    }
  });
  EXPECT_FALSE(BlockedChannelGather::Concat({{8, std::vector<uint8_t>(255)}}, 16).ok());
  auto f32 = BlockedChannelGather::Concat({{8, std::vector<uint8_t>(256)}}, 16);
  ASSERT_TRUE(f32.ok());
  Tensor out;
  EXPECT_FALSE(f32->Run({Tensor::Zeros(DType::kF32, {1, 1, 2, 2, 16})}, &out, nullptr).ok());  // tables need bytes
}

}  // namespace
}  // namespace qnnc::kernels::layout
