// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The processes of an MPI run agree before the work (perfshap/processes.hpp): each has read its
// inputs without error, and all read the same. A run's first collective is this agreement, so a
// process that failed on its inputs (in the library or in its front end) says so to the others
// there, and every process ends with the same one-line error instead of waiting for a peer that
// is gone; a process that read other data, another model or other options ends the job naming
// the ranks and what differs, instead of blending two runs into a value equal to neither.

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "perfshap/execution.hpp"
#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What a process read for a run, part by part ("data", "model", "options"): each part's
 *  bytes are summed up (Fingerprint) and compared with the other processes'. Only over processes
 *  (active()): a run alone does not pay for the sums. */
class InputDigests {
 public:
  explicit InputDigests(const ExecutionOptions& execution);
  /** @brief True when the run is shared by processes: the parts are wanted. */
  bool active() const noexcept { return active_; }
  /** @brief The bytes of part `name` (appended to what it holds). */
  ByteWriter& Part(const std::string& name) { return parts_[name]; }
  /** @brief Each part's fingerprint, by name. */
  std::map<std::string, std::string> Fingerprints() const;

 private:
  bool active_ = false;
  std::map<std::string, ByteWriter> parts_;
};

/**
 * @brief Over the processes of `execution` (none or one: nothing to do), agrees with the others
 * that every one read its inputs (a process that failed says so from its front end:
 * TellPeersOfFailure) and read the same (`digests`). A collective: every process calls it after
 * reading its inputs, before the run's first other collective.
 * @throws on every process the same error: the lowest failing rank's (its type, message and
 *   options; "rank R of N: " before the message unless every process failed alike), or
 *   InvalidArgument naming the ranks whose inputs differ from rank 0's and in what.
 */
void AgreeOnInputs(const ExecutionOptions& execution, const InputDigests& digests);

/** @brief Starts a front end's run on this thread over `group` (null: none yet known): its
 *  agreement is still to come. */
void BeginRunAgreement(std::shared_ptr<const Processes> group = nullptr) noexcept;

/** @brief Notes the processes of this thread's run as the request layer learns them (a front end
 *  that passes them in its options), for TellPeersOfFailure. */
void NoteRunProcesses(std::shared_ptr<const Processes> group) noexcept;

/**
 * @brief A front end's error on this process before its run agreed (the flags, the inputs, an
 * output folder in the way): takes part in the agreement as a failed process, so that the others
 * stop with this error (the processes are `group`, or those noted for the run). @return true when
 * it did; false when there are no processes or the run had agreed already (the error then came
 * after the agreement: a collective's, which every process has (ErrorIsShared), or this
 * process's own, which the others cannot learn).
 */
bool TellPeersOfFailure(std::exception_ptr error, const Processes* group = nullptr);

/** @brief True when the error this thread's run is ending with was thrown by a collective (an
 *  agreement or a shared share of work): every process of the run throws it. */
bool ErrorIsShared() noexcept;

/** @brief Marks the error about to be thrown as every process's (RunShared, the agreement). */
void MarkErrorShared() noexcept;

/** @brief Ends every process of the job at once (MPI_Abort with `code`): for a front end whose
 *  process failed alone after the agreement, where the others would wait for it. */
[[noreturn]] void AbortProcesses(const Processes& group, int code);

/** @brief A failure as bytes (a status byte of 1, its kind, message and options), and back. */
void PutError(ByteWriter& out, std::exception_ptr failure);
/** @brief Throws the error PutError wrote (after its status byte), as its kind; `prefix` goes
 *  before its message. */
[[noreturn]] void ThrowError(ByteReader& in, int rank, const std::string& prefix = {});

}}}  // namespace perfshap::detail
