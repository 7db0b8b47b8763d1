// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "commands.hpp"

namespace perfshap::cli {

std::vector<Command> AllCommands() {
  return {
      {"demo", "the main job: every method (metrics, exact Shapley, XPER, ShapAUC bands) on built-in generated data or --data",
       SetupDemo},
      {"xper", "XPER: decompose a model's performance metric over its features, globally and per individual", SetupXper},
      {"xper-montecarlo", "the XPER paper's Monte Carlo experiment: distributions of the AUC decomposition over K probit samples", SetupXperMonteCarlo},
      {"robustness", "ShapAUC/ShapROC/ShapPRC: explain AUC and the ROC/PR curves by retraining on every coalition, with CV bands", SetupRobustness},
  };
}

}  // namespace perfshap::cli
