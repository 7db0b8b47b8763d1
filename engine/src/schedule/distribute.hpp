// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Work items spread over processes (perfshap/processes.hpp): each runs a contiguous share of
// the items, the results are exchanged as bytes, and every process hands every item's result
// to the caller in item order. Items are fixed by the caller (splits, row blocks), never by the
// number of processes, so the result is bitwise what one process computes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "perfshap/processes.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Items [begin, end). */
struct ItemRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/** @brief Rank `rank`'s share of n items among `size` processes: contiguous, the first
 *  n % size ranks one item more. */
ItemRange ShareOf(std::size_t n_items, int rank, int size);

/** @brief Appends values to a byte buffer (this machine's byte order: the processes of an MPI
 *  job run the same build). */
class ByteWriter {
 public:
  template <class T>
  void Put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void PutSpan(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    Put<std::uint64_t>(values.size());
    const auto* p = reinterpret_cast<const std::byte*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size_bytes());
  }
  template <class T>
  void PutVector(const std::vector<T>& values) {
    PutSpan(std::span<const T>(values));
  }
  void PutString(const std::string& s) { PutSpan(std::span<const char>(s.data(), s.size())); }
  void PutStrings(const std::vector<std::string>& strings) {
    Put<std::uint64_t>(strings.size());
    for (const std::string& s : strings) PutString(s);
  }
  std::vector<std::byte>& bytes() noexcept { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

/** @brief Reads what a ByteWriter wrote, in the same order; reading past the end is a bug. */
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T Get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, Take(sizeof(T)), sizeof(T));
    return value;
  }
  template <class T>
  std::vector<T> GetVector() {
    const auto n = static_cast<std::size_t>(Get<std::uint64_t>());
    std::vector<T> values(n);
    if (n > 0) std::memcpy(values.data(), Take(n * sizeof(T)), n * sizeof(T));
    return values;
  }
  /** @brief n values into `out` (which must hold exactly as many as were written). */
  template <class T>
  void GetInto(std::span<T> out) {
    const auto n = static_cast<std::size_t>(Get<std::uint64_t>());
    if (n != out.size()) throw std::logic_error("perfshap: exchanged values of the wrong length");
    if (n > 0) std::memcpy(out.data(), Take(n * sizeof(T)), n * sizeof(T));
  }
  /** @brief A span of bytes written by PutSpan / PutVector (of std::byte only), without a copy. */
  std::span<const std::byte> GetBytes() {
    const auto n = static_cast<std::size_t>(Get<std::uint64_t>());
    return {Take(n), n};
  }
  std::string GetString() {
    const auto n = static_cast<std::size_t>(Get<std::uint64_t>());
    return std::string(reinterpret_cast<const char*>(Take(n)), n);
  }
  std::vector<std::string> GetStrings() {
    std::vector<std::string> strings(static_cast<std::size_t>(Get<std::uint64_t>()));
    for (std::string& s : strings) s = GetString();
    return strings;
  }
  bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  const std::byte* Take(std::size_t n) {
    if (n > bytes_.size() - at_) throw std::logic_error("perfshap: exchanged bytes end early");
    const std::byte* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

/** @brief Every process's bytes, in rank order; a collective (every process of the group calls
 *  it, with its own bytes). For a process alone: its own bytes. */
std::vector<std::vector<std::byte>> AllGather(const Processes& group, std::span<const std::byte> mine);

/**
 * @brief Runs this process's share of n items and hands every item's result to every process.
 *
 * run(share, write) computes the items of `share` (ShareOf this rank) and writes each item's
 * result with write(item), which returns the ByteWriter of that item (call it once per item of
 * the share, in any order). Then, on every process, read(item, reader) is called for items
 * 0, 1, ..., n - 1 in order, one at a time, with that item's bytes. A collective: every process
 * of the group calls it with the same n.
 *
 * Errors: a throw from run is the error of its share's lowest failing item; every process then
 * rethrows the error of the lowest rank that failed (the lowest failing item of all, as one
 * process would), as its type (InvalidArgument, DataError, ResourceError, Cancelled, Error; any
 * other as a std::runtime_error), with its message and options; read is called for no item.
 */
void RunShared(const Processes& group, std::size_t n_items,
               const std::function<void(ItemRange share, const std::function<ByteWriter&(std::size_t)>& write)>& run,
               const std::function<void(std::size_t item, ByteReader& reader)>& read);

}}}  // namespace perfshap::detail
