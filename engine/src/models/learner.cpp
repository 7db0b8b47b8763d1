// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/learner.hpp"

#include "models/coalition_trainer.hpp"
#include "perfshap/error.hpp"

namespace perfshap {

LearnerKind ParseLearner(const std::string& name) {
  if (name == "gnb") return LearnerKind::kGaussianNb;
  if (name == "logistic") return LearnerKind::kLogistic;
  if (name == "linear") return LearnerKind::kLinear;
  if (name == "probit") return LearnerKind::kProbit;
  throw InvalidArgument("unknown model '" + name + "': choose one of gnb, logistic, linear, probit");
}

const char* LearnerName(LearnerKind kind) noexcept {
  switch (kind) {
    case LearnerKind::kGaussianNb:
      return "gnb";
    case LearnerKind::kLogistic:
      return "logistic";
    case LearnerKind::kLinear:
      return "linear";
    case LearnerKind::kProbit:
      return "probit";
  }
  return "unknown";
}

bool IsClassifierLearner(LearnerKind kind) noexcept { return kind != LearnerKind::kLinear; }

std::unique_ptr<Model> Train(LearnerKind kind, const Dataset& data, std::span<const std::size_t> rows,
                             std::span<const std::size_t> columns, const LearnerOptions& options) {
  const detail::PreparedSplit split(kind, data, columns, rows, {}, options, "the training rows");
  detail::CoalitionTrainer trainer(split);
  trainer.Fit(FullCoalition(split.n_players()));
  return trainer.MakeModel();
}

}  // namespace perfshap
