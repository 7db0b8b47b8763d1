// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/robustness_request.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/cost_estimates.hpp"
#include "api/run_inputs.hpp"
#include "explain/robustness_splits.hpp"
#include "perfshap/error.hpp"
#include "report/format.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 { namespace api {

std::shared_ptr<const Learner> MakeLearnerOf(const LearnerInput& input) {
  if (input.learner == nullptr) {
    try {
      return MakeLearner(input.name, input.params);
    } catch (const InvalidArgument& e) {
      // An option of the learner's own (or one it lacks) is one of the model_params; the learner's
      // name is the learner option's.
      const auto& named = e.options();
      if (std::find(named.begin(), named.end(), "learner") != named.end()) throw;
      throw InvalidArgument(e.what(), {"model_params"});
    }
  }
  if (!input.params.empty())
    throw InvalidArgument("the learner " + input.learner->name() + " is the host's own and keeps its own options; "
                          "set them on it instead of model_params (" + input.params.begin()->first + ")",
                          {"model_params"});
  return input.learner;
}

RobustnessResponse RunRobustness(const RobustnessRequest& request) {
  // The thread pool starts while the data and the splits are read.
  std::optional<detail::PoolWarmUp> warm_up;
  if (request.warm_up_pool) warm_up.emplace(request.options.execution);
  RobustnessOptions opt = request.options;
  opt.learner = MakeLearnerOf(request.learner);
  // The players: the features, text columns as the learner takes them, the groups.
  const Design design = ReadDesign(request.data, request.seed, opt.learner->text_columns());
  const Dataset& data = design.data;
  opt.players = design.players;
  if (!(request.slice_fpr >= 0.0 && request.slice_fpr <= 1.0))
    throw InvalidArgument("the slice FPR " + detail::Fmt("%g", request.slice_fpr) +
                              " is outside [0, 1]; it is a false positive rate",
                          {"slice_fpr"});

  // The split plan: explicit splits (in memory or a file), or a drawn plan.
  const SplitInput& s = request.splits;
  const bool explicit_splits = s.explicit_splits();
  const std::span<const double> strata = s.stratify ? data.label() : std::span<const double>{};
  opt.plan_name = s.plan_name();
  if (!explicit_splits) {
    // Before the splits are drawn: the estimate.
    RobustnessShape shape;
    shape.rows = data.n_rows();
    shape.columns = data.n_features();
    shape.players = opt.players.empty() ? data.n_features() : opt.players.size();
    shape.splits = SplitPlanSize(s.plan);
    shape.drawn = true;
    shape.test_rows = static_cast<std::size_t>(std::ceil(s.test_size * static_cast<double>(data.n_rows())));
    CheckCost(EstimateRobustnessCost(shape, opt), opt.execution, kRobustnessRemedy,
              {"plan", "solver", "budget", "features"});
    opt.execution.on_estimate = nullptr;  // said once
  }
  // Explicit splits are held (and checked) whole; a drawn plan is drawn a window at a time as the
  // run goes, so mc:1000000 holds a window's row indices, not the plan's.
  const SplitPlan plan = explicit_splits ? ExplicitSplitPlan(s, data.n_rows()) : SplitPlan{};
  const detail::SplitSequence splits = explicit_splits
                                           ? detail::SplitSequence(plan)
                                           : detail::SplitSequence::Drawn(s.plan, data.n_rows(), s.test_size,
                                                                          request.seed, strata);

  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(opt.execution).Data(data).Learner(*opt.learner).Agree();
  warm_up.reset();
  RobustnessResponse response{detail::ExplainRobustness(data, splits, opt), {}};
  detail::RobustnessRun& run = response.run;
  run = detail::DescribeRobustnessRun(data, splits, opt.plan_name);
  if (!explicit_splits && s.plan.rfind("kfold:", 0) != 0) run.test_size = s.test_size;
  run.stratify = s.stratify;
  run.slice_fpr = request.slice_fpr;
  run.seed = request.seed;
  run.missing = MissingValuesName(request.data.missing);
  run.groups = request.data.groups_source;
  return response;
}

}}}  // namespace perfshap::api
