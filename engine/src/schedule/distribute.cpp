// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "schedule/distribute.hpp"

#include <exception>
#include <new>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/error.hpp"
#include "schedule/agreement.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

ItemRange ShareOf(std::size_t n_items, int rank, int size) {
  const auto k = static_cast<std::size_t>(size);
  const auto r = static_cast<std::size_t>(rank);
  const std::size_t base = n_items / k;
  const std::size_t extra = n_items % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

void RunShared(const Processes& group, std::size_t n_items,
               const std::function<void(ItemRange share, const std::function<ByteWriter&(std::size_t)>& write)>& run,
               const std::function<void(std::size_t item, ByteReader& reader)>& read) {
  const ItemRange share = ShareOf(n_items, group.rank(), group.size());
  std::vector<ByteWriter> results(share.end - share.begin);
  ByteWriter mine;
  try {
    run(share, [&](std::size_t item) -> ByteWriter& {
      if (item < share.begin || item >= share.end) throw std::logic_error("perfshap: an item outside the share");
      return results[item - share.begin];
    });
    mine.Put<std::uint8_t>(0);
    for (ByteWriter& item : results) mine.PutVector(item.bytes());
  } catch (...) {
    mine = ByteWriter();
    PutError(mine, std::current_exception());
  }
  results.clear();
  const std::vector<std::vector<std::byte>> all = AllGather(group, mine.bytes());
  mine = ByteWriter();
  for (int r = 0; r < group.size(); ++r) {
    ByteReader in(all[static_cast<std::size_t>(r)]);
    if (in.Get<std::uint8_t>() != 0) {
      MarkErrorShared();
      ThrowError(in, r);
    }
  }
  for (int r = 0; r < group.size(); ++r) {
    ByteReader in(all[static_cast<std::size_t>(r)]);
    in.Get<std::uint8_t>();
    const ItemRange theirs = ShareOf(n_items, r, group.size());
    for (std::size_t item = theirs.begin; item < theirs.end; ++item) {
      ByteReader item_reader(in.GetBytes());
      read(item, item_reader);
    }
  }
}

}}}  // namespace perfshap::detail
