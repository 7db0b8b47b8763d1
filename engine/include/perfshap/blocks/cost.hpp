// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What a computation will cost, known from the shapes of its inputs before its first expensive
// step: the model evaluations it makes (the time) and the largest memory it holds at once. Every
// method estimates itself (Estimate*Cost beside its entry point), hands the estimate to the
// caller's hook (ExecutionOptions::on_estimate: the command line prints it with the progress)
// and refuses to start beyond the caller's limits (ExecutionOptions::limits), with the numbers
// and what to change, instead of running for days or failing on an allocation half-way.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief A computation's cost, estimated from its inputs' shapes before it starts. */
struct PERFSHAP_EXPORT CostEstimate {
  /** One named part of the memory held at once (bytes, as a double: estimates may overflow
   *  64 bits). */
  struct Part {
    std::string name;
    double bytes = 0.0;
  };
  /** The method ("robustness", "xper", "shap", ...). */
  std::string method;
  /** The work in the method's terms, e.g. "2^20 coalitions x 10,000 rows x 100 background rows". */
  std::string work;
  /** Model evaluations: one row predicted, or one training row's pass in a fit (the time). */
  double model_evaluations = 0.0;
  /** Progress units the computation will count (coalitions, trainings; 0 when unknown). */
  double units = 0.0;
  /** The largest parts of the memory held at once, largest first after Finish(). */
  std::vector<Part> memory;

  /** @brief The sum of the memory parts. */
  double peak_bytes() const noexcept;
  /** @brief Adds a memory part (ignored when `bytes` is 0). */
  void AddMemory(std::string name, double bytes);
  /** @brief One line: "xper: 2^20 coalitions x ... = 1.1e12 model evaluations, 8.5 GB of memory
   *  (comparison grid 8.5 GB, ...)". */
  std::string Text() const;
  /** @brief Computations run one after the other, as one: their evaluations and units added,
   *  the memory of the largest, their work texts joined ("xper: ...; robustness: ..."). */
  static CostEstimate Sequence(std::string method, const std::vector<CostEstimate>& steps);
};

/** @brief Model evaluations a computation may take when no limit is given: days of work on a
 *  small machine (a tree prediction, a hybrid row's score or a training row's pass counts one),
 *  so only a request that would not finish in reasonable time is refused by default. */
inline constexpr double kDefaultMaxModelEvaluations = 1e14;

/** @brief The memory a computation may hold when no limit is given: three quarters of the
 *  machine's physical memory or of the process's cgroup limit, whichever is smaller. */
PERFSHAP_EXPORT double DefaultMaxMemory();

/**
 * @brief Parses a memory size: bytes ("1000000"), or a number with a unit K, M, G, T (powers of
 * 1024; "KB", "MiB", "GiB"... and lower case are the same), e.g. "8G", "512MiB", "1.5g".
 * @throws InvalidArgument (option max_memory) for anything else or a size that is not positive.
 */
PERFSHAP_EXPORT double ParseMemorySize(const std::string& text);

/** @brief "1.5 GB", "800 MB", "12 KB", "900 bytes" (powers of 1024). */
PERFSHAP_EXPORT std::string FormatBytes(double bytes);

/** @brief A request beyond the resource limits (memory, evaluations), or an allocation that
 *  failed: the message says how much of what, the limit, and what to change. */
class PERFSHAP_EXPORT ResourceError : public Error {
 public:
  explicit ResourceError(const std::string& what, std::vector<std::string> options = {})
      : Error(what, std::move(options)) {}
};

/**
 * @brief Refuses `estimate` when its memory exceeds
 * execution.limits.max_memory_bytes (0: DefaultMaxMemory()) or its model evaluations exceed
 * execution.limits.max_model_evaluations (0: kDefaultMaxModelEvaluations); hands an accepted
 * estimate to execution.on_estimate (a refused one is in the refusal's message).
 * @param remedy what to change, in the library's words, e.g. "use the kernel solver with a
 *   budget, or fewer rows"; `remedy_options` names the options it is about (Error::options()).
 * @throws ResourceError naming the estimate, the limit and the remedy.
 */
PERFSHAP_EXPORT void CheckCost(const CostEstimate& estimate, const ExecutionOptions& execution,
                               const std::string& remedy, std::vector<std::string> remedy_options = {});

/** @brief "2^20" for powers of two up to 2^62, else the count ("1,000,000"; "about 5.4e300" past
 *  2^64), for messages that name coalition counts. */
PERFSHAP_EXPORT std::string FormatCount(double count);

}}  // namespace perfshap
