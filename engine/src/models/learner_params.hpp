// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <string>
#include <vector>

#include "perfshap/learner.hpp"

namespace perfshap::detail {

/**
 * @brief Reads a learner's options from LearnerParams, each by its name and type; Finish()
 * rejects any option the learner did not read (naming the learner and listing its options).
 */
class ParamReader {
 public:
  ParamReader(std::string learner, const LearnerParams& params) : learner_(std::move(learner)), params_(params) {}
  /** @brief value = the number given for `name`, if any. @throws InvalidArgument if not a number. */
  void Read(const std::string& name, double& value);
  void Read(const std::string& name, int& value);
  /** @brief true/false, 1/0, yes/no. */
  void Read(const std::string& name, bool& value);
  /** @throws InvalidArgument for an option no Read asked for. */
  void Finish() const;

 private:
  const std::string* Find(const std::string& name);
  std::string learner_;
  const LearnerParams& params_;
  std::vector<std::string> known_;
};

/** @brief LearnerParams of the given numbers, formatted to read back exactly. */
std::string ParamText(double v);

}  // namespace perfshap::detail
