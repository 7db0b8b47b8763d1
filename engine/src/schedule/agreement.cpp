// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "schedule/agreement.hpp"

#include <cstdint>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/error.hpp"
#include "schedule/checkpoint.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

// This thread's run: whether its agreement has happened, and whether the error it ends with is
// every process's.
thread_local bool t_agreed = false;
thread_local bool t_error_shared = false;
thread_local std::shared_ptr<const Processes> t_group;

enum class ErrorKind : std::uint8_t { kError, kInvalidArgument, kDataError, kResourceError, kCancelled, kOther };

/** Ranks (from 1) whose fingerprints differ from rank 0's, each with the parts that differ. */
std::string Differences(const std::vector<std::map<std::string, std::string>>& prints) {
  std::string text;
  for (std::size_t r = 1; r < prints.size(); ++r) {
    std::string parts;
    for (const auto& [name, print] : prints[0]) {
      const auto theirs = prints[r].find(name);
      if (theirs == prints[r].end() || theirs->second != print) parts += (parts.empty() ? "" : ", ") + name;
    }
    for (const auto& [name, print] : prints[r])
      if (prints[0].count(name) == 0) parts += (parts.empty() ? "" : ", ") + name;
    if (!parts.empty()) text += (text.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + ": " + parts;
  }
  return text;
}

/** The agreement itself: every process's status (and fingerprints), then the same verdict on each. */
void Agree(const Processes& group, std::exception_ptr failure, const InputDigests* digests) {
  ByteWriter mine;
  if (failure != nullptr) {
    PutError(mine, failure);
  } else {
    mine.Put<std::uint8_t>(0);
    std::vector<std::string> names;
    std::vector<std::string> prints;
    if (digests != nullptr)
      for (auto& [name, print] : digests->Fingerprints()) {
        names.push_back(name);
        prints.push_back(print);
      }
    mine.PutStrings(names);
    mine.PutStrings(prints);
  }
  const std::vector<std::vector<std::byte>> all = AllGather(group, mine.bytes());
  t_agreed = true;
  int first_failed = -1;
  int failed = 0;
  for (int r = 0; r < group.size(); ++r) {
    if (static_cast<std::uint8_t>(all[static_cast<std::size_t>(r)].at(0)) == 0) continue;
    ++failed;
    if (first_failed < 0) first_failed = r;
  }
  if (first_failed >= 0) {
    // The same error on every process: said as it is; otherwise with the rank that had it.
    const std::vector<std::byte>& first = all[static_cast<std::size_t>(first_failed)];
    bool alike = failed == group.size();
    for (int r = 0; r < group.size() && alike; ++r) alike = all[static_cast<std::size_t>(r)] == first;
    std::string prefix;
    if (!alike)
      prefix = "rank " + std::to_string(first_failed) + (failed > 1 ? " (and " + std::to_string(failed - 1) + " more)" : "") +
               " of " + std::to_string(group.size()) + ": ";
    ByteReader in(first);
    in.Get<std::uint8_t>();
    MarkErrorShared();
    ThrowError(in, first_failed, prefix);
  }
  std::vector<std::map<std::string, std::string>> prints(static_cast<std::size_t>(group.size()));
  for (int r = 0; r < group.size(); ++r) {
    ByteReader in(all[static_cast<std::size_t>(r)]);
    in.Get<std::uint8_t>();
    const std::vector<std::string> names = in.GetStrings();
    const std::vector<std::string> values = in.GetStrings();
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i)
      prints[static_cast<std::size_t>(r)][names[i]] = values[i];
  }
  const std::string differences = Differences(prints);
  if (!differences.empty()) {
    MarkErrorShared();
    throw InvalidArgument("the " + std::to_string(group.size()) +
                              " processes of this MPI run were not given the same inputs (" + differences +
                              " differ from rank 0's): every process must read the same data, model and options "
                              "(the same file contents, the same flags)",
                          {"processes"});
  }
}

}  // namespace

InputDigests::InputDigests(const ExecutionOptions& execution) : active_(SharedProcesses(execution) != nullptr) {}

std::map<std::string, std::string> InputDigests::Fingerprints() const {
  std::map<std::string, std::string> prints;
  for (auto& [name, part] : parts_) prints[name] = Fingerprint(const_cast<ByteWriter&>(part).bytes());
  return prints;
}

void AgreeOnInputs(const ExecutionOptions& execution, const InputDigests& digests) {
  const std::shared_ptr<const Processes> group = SharedProcesses(execution);
  if (group == nullptr) return;
  Agree(*group, nullptr, &digests);
}

void BeginRunAgreement(std::shared_ptr<const Processes> group) noexcept {
  t_agreed = false;
  t_error_shared = false;
  t_group = std::move(group);
}

void NoteRunProcesses(std::shared_ptr<const Processes> group) noexcept {
  if (group != nullptr) t_group = std::move(group);
}

bool TellPeersOfFailure(std::exception_ptr error, const Processes* group) {
  if (group == nullptr) group = t_group.get();
  if (group == nullptr || t_agreed || group->size() <= 1) return false;
  try {
    Agree(*group, std::move(error), nullptr);
  } catch (...) {  // this process's own error (or a lower rank's): the caller has its own to say
  }
  return true;
}

bool ErrorIsShared() noexcept { return t_error_shared; }

void MarkErrorShared() noexcept { t_error_shared = true; }

void PutError(ByteWriter& out, std::exception_ptr failure) {
  out.Put<std::uint8_t>(1);
  ErrorKind kind = ErrorKind::kOther;
  std::string what;
  std::vector<std::string> options;
  try {
    std::rethrow_exception(failure);
  } catch (const Cancelled& e) {
    kind = ErrorKind::kCancelled;
    what = e.what();
  } catch (const ResourceError& e) {
    kind = ErrorKind::kResourceError;
    what = e.what();
    options = e.options();
  } catch (const DataError& e) {
    kind = ErrorKind::kDataError;
    what = e.what();
    options = e.options();
  } catch (const InvalidArgument& e) {
    kind = ErrorKind::kInvalidArgument;
    what = e.what();
    options = e.options();
  } catch (const Error& e) {
    kind = ErrorKind::kError;
    what = e.what();
    options = e.options();
  } catch (const std::bad_alloc&) {
    what = "out of memory";
  } catch (const std::exception& e) {
    what = e.what();
  }
  out.Put(kind);
  out.PutString(what);
  out.PutStrings(options);
}

void ThrowError(ByteReader& in, int rank, const std::string& prefix) {
  const auto kind = in.Get<ErrorKind>();
  std::string what = prefix + in.GetString();
  std::vector<std::string> options = in.GetStrings();
  switch (kind) {
    case ErrorKind::kCancelled:
      if (prefix.empty()) throw Cancelled();
      throw Error(what);
    case ErrorKind::kResourceError: throw ResourceError(what, std::move(options));
    case ErrorKind::kDataError: throw DataError(what, std::move(options));
    case ErrorKind::kInvalidArgument: throw InvalidArgument(what, std::move(options));
    case ErrorKind::kError: throw Error(what, std::move(options));
    case ErrorKind::kOther: break;
  }
  throw std::runtime_error(prefix.empty() ? "process " + std::to_string(rank) + ": " + what : what);
}

}}}  // namespace perfshap::detail
