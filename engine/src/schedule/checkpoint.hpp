// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A run's finished work items kept on disk (--checkpoint DIR), so that a run killed and started
// again with the same inputs skips them and ends with bitwise the result of an uninterrupted run.
//
// DIR holds manifest.json (the format, perfshap's version, the run's fingerprint and its number
// of items) and one file per finished item, item-<id>.bin: a header (magic, id, length, a
// 64-bit FNV-1a checksum of the payload that starts from the run's fingerprint, so that an item
// of another run does not check out) and the item's bytes. Each file is written beside its
// name, fsynced, renamed into place and the directory fsynced, so a kill leaves whole files or
// none; a file that does not check out is ignored (its item is computed again). Under MPI every
// process reads and writes DIR, which must be on a file system they all see. It lives beside the
// distribution over processes (schedule/distribute.hpp) because an item kept is an item
// exchanged: the same bytes, read back by the first process and passed to the others.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief 64-bit FNV-1a of bytes, continuing from `hash`. */
std::uint64_t Fnv1a(std::span<const std::byte> bytes, std::uint64_t hash = 0xcbf29ce484222325ULL);

/** @brief A run's fingerprint as a checkpoint's manifest keeps it: Fnv1a of `bytes`, 16 hex digits. */
std::string Fingerprint(std::span<const std::byte> bytes);

class Checkpoint {
 public:
  /**
   * @brief Opens (or makes) the checkpoint in `dir` for a run of `n_items` items whose inputs
   * and options are summed up by `fingerprint`. A collective over `group` (null: alone): the
   * first process makes or checks the manifest, and every process throws its error.
   * @throws InvalidArgument (one line, option `checkpoint`) when dir holds another run's
   *   checkpoint (other arguments, data or version) or is not a checkpoint; DataError when it
   *   cannot be made or read.
   */
  Checkpoint(std::string dir, const std::string& fingerprint, std::size_t n_items, const Processes* group);

  /** @brief Item `id`'s bytes when it finished in an earlier run (and its file checks out). */
  std::optional<std::vector<std::byte>> Load(std::size_t id) const;
  /** @brief Keeps item `id`'s bytes (atomically; thread-safe for distinct ids). */
  void Save(std::size_t id, std::span<const std::byte> bytes) const;
  const std::string& dir() const noexcept { return dir_; }

 private:
  std::string dir_;
  std::uint64_t seed_;  // where each item's checksum starts: the run's fingerprint hashed
};

/**
 * @brief The bytes of the items among [first, first + n) that `checkpoint` keeps (at [i - first];
 * nullopt for the others),
 * read by the first process of `group` (null: alone) and passed to the others, so that every
 * process sees the same items done. A collective over `group`.
 */
std::vector<std::optional<std::vector<std::byte>>> LoadKept(const std::shared_ptr<const Processes>& group,
                                                             const Checkpoint& checkpoint, std::size_t n,
                                                             std::size_t first = 0);

/**
 * @brief Items [0, n) computed by compute(item) -> its bytes, over `group` (null: this process
 * alone; otherwise each process a contiguous share of the items left), with the items that
 * `checkpoint` (may be null) keeps read instead of computed and each computed item kept there.
 * read(item, reader) is then called for every item in order, on every process. A collective
 * over `group`; errors as RunShared.
 */
void RunKeptItems(const std::shared_ptr<const Processes>& group, std::size_t n, const Checkpoint* checkpoint,
                  const std::function<std::vector<std::byte>(std::size_t)>& compute,
                  const std::function<void(std::size_t, ByteReader&)>& read);

}}}  // namespace perfshap::detail
