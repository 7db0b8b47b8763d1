// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "commands.hpp"

#include <algorithm>

namespace perfshap::cli {

namespace {

// The library's option names (the fields of its options structs) and the flags that set them,
// for every subcommand that has the flag.
const std::map<std::string, std::string>& CommonFlags() {
  static const std::map<std::string, std::string> flags = {
      {"label", "--label"},           {"positive", "--positive"},     {"features", "--features"},
      {"groups", "--groups"},         {"missing", "--missing"},       {"learner", "--model"},
      {"C", "--C"},                   {"standardize", "--no-standardize"}, {"out", "--out"},
      {"force", "--force"},           {"threads", "--threads"},       {"seed", "--seed"},
      {"data", "--data"},             {"solver", "--solver"},         {"budget", "--budget"},
      {"tolerance", "--tolerance"},   {"time_limit_seconds", "--time-limit"}, {"keep_samples", "--keep-samples"},
      {"max_memory", "--max-memory"}, {"max_model_evaluations", "--max-evaluations"},
  };
  return flags;
}

}  // namespace

std::vector<std::string> OptionFlags(const Command& command, const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (const std::string& option : options) {
    const auto own = command.flags.find(option);
    const auto common = CommonFlags().find(option);
    const std::string flag = own != command.flags.end()       ? own->second
                             : common != CommonFlags().end() ? common->second
                                                             : std::string();
    if (!flag.empty() && std::find(out.begin(), out.end(), flag) == out.end()) out.push_back(flag);
  }
  return out;
}

std::vector<Command> AllCommands() {
  return {
      {"demo", "the main job: every method (metrics, exact Shapley, XPER, ShapAUC bands) on built-in generated data or --data",
       SetupDemo, {{"max_features", "--exact-limit"}, {"test_size", "--test-size"}, {"rows", "--rows"}}},
      {"xper", "XPER: decompose a model's performance metric over its features, globally and per individual", SetupXper,
       {{"metric", "--metric"}, {"max_features", "--max-features"}, {"max_players", "--max-features"},
        {"threshold", "--threshold"},
        {"cfp", "--cfp"}, {"cfn", "--cfn"}, {"comparator", "--comparator"}, {"permutation", "--permutation"},
        {"clusters", "--clusters"}, {"train", "--train"}, {"coefficients", "--coef"}}},
      {"xper-montecarlo", "the XPER paper's Monte Carlo experiment: distributions of the AUC decomposition over K probit samples",
       SetupXperMonteCarlo,
       {{"samples", "--samples"}, {"train_rows", "--train-rows"}, {"rows", "--rows"}, {"comparator", "--comparator"}}},
      {"robustness", "ShapAUC/ShapROC/ShapPRC: explain AUC and the ROC/PR curves by retraining on coalitions (all, or sampled), with CV bands",
       SetupRobustness,
       {{"metric", "--metrics"}, {"extra_metrics", "--metrics"}, {"max_features", "--exact-limit"},
        {"max_players", "--exact-limit"},
        {"prc_baseline", "--prc-baseline"}, {"curves", "--curve-points"}, {"strategy", "--strategy"},
        {"grid_points", "--grid"}, {"stratify", "--stratify"}, {"test_size", "--test-size"}, {"plan", "--cv"},
        {"split", "--split"}, {"rows", "--rows"}, {"slice_fpr", "--slice-fpr"}}},
      {"shap", "SHAP: explain a model's predictions (interventional, by retraining, or TreeSHAP), per row and globally",
       SetupShap, {{"output", "--output"}, {"background", "--background"}, {"max_players", "--budget"}, {"rows", "--rows"}}},
      {"treeshap", "TreeSHAP: exact SHAP of a tree model's margins (XGBoost JSON, --model tree|forest), threaded",
       SetupTreeShap, {{"output", "--output"}, {"background", "--background"}, {"rows", "--rows"}}},
      {"axom", "AXOM: explain random forests by the trees voting with them, and the robustness (L_bar) of tree, forest and AXOM explanations",
       SetupAxom, {{"eps", "--eps"}, {"neighbours", "--neighbours"}, {"features", "--heatmap-features"},
                   {"trees", "--trees"}}},
      {"chains", "Shapley Chains: direct and indirect contributions of features to every output of a classifier chain",
       SetupChains, {{"outputs", "--outputs"}, {"order", "--order"}, {"orders", "--orders"},
                     {"max_outputs", "--max-outputs"}, {"background", "--background"}}},
  };
}

}  // namespace perfshap::cli
