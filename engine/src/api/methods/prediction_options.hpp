// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The options of the methods over a model's predictions (shap, treeshap, sage), declared once
// for any request that is a ShapRequest (R: ShapRequest or one built on it): the model (a given
// model or a learner fitted on a training sample), the value function and the background.

#include <cstddef>
#include <optional>
#include <string>

#include "api/methods/method_kit.hpp"
#include "api/shap_request.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief model_file's group, the learner's group, train, trees and max_depth. */
template <class R>
void DeclarePredictionModel(RequestOptions<WithSolver<R>>& t) {
  using Request = WithSolver<R>;
  using Ctx = typename RequestOptions<Request>::ParseContext;
  t.template Include<GivenModelInput>(ModelFileOptionGroup(),
                                      [](Request& r) -> GivenModelInput& { return r.request.model; });
  t.template Include<LearnerInput>(LearnerOptionGroup(),
                                   [](Request& r) -> LearnerInput& { return r.request.model.learner; });
  DeclareTrainFile<Request>(
      t, [](Request& r) -> std::optional<DataInput>& { return r.request.model.train; },
      "CSV with the columns of data and the label: fit model on it");
  t.AddParsed("trees", OptionType::kInteger, "",
              [](const Ctx& c, Request& r) {
                r.request.model.trees =
                    static_cast<int>(perfshap::detail::ParseIntegerOption(c.method, c.option.info, c.text));
              })
      .AtLeast(1)
      .AtMost(100000)
      .Help("model forest: number of trees (default 100)");
  t.AddParsed("max_depth", OptionType::kInteger, "",
              [](const Ctx& c, Request& r) {
                r.request.model.max_depth =
                    static_cast<int>(perfshap::detail::ParseIntegerOption(c.method, c.option.info, c.text));
              })
      .AtLeast(0)
      .AtMost(1000)
      .Help("model tree or forest: largest depth (0 = unlimited)");
}

/** @brief conditional and conditional_samples: the value function of the features off a
 *  coalition; regression (and regression_model) where the request's options have a regressor
 *  (the methods over predictions; XPER averages its terms over draws, which regression has not). */
template <class R>
void DeclareValueFunction(RequestOptions<WithSolver<R>>& t) {
  using Request = WithSolver<R>;
  using Ctx = typename RequestOptions<Request>::ParseContext;
  constexpr bool kRegression = requires(R r) { r.options.regression_model; };
  std::vector<std::string> choices{"marginal", "gaussian", "copula", "empirical", "ctree"};
  std::string help =
      "the value function of the features off a coalition: marginal (from background rows, ignoring the "
      "others), gaussian (drawn from their normal distribution given the coalition's values, mean and "
      "covariance from the background), copula (the same on normal scores, each feature's margin the "
      "background's), empirical (background rows weighted by their closeness to the row on the coalition)";
  const std::string ctree =
      "ctree (background rows in the row's leaf of a conditional inference tree of the features off the "
      "coalition on those on it)";
  if (kRegression) {
    choices.push_back("regression");
    help +=
        ", " + ctree +
        " or regression (no draws: a regression of the model's output on the coalition's features, fitted to "
        "the background)";
  } else {
    help += " or " + ctree;
  }
  t.AddParsed("conditional", OptionType::kText, "marginal",
              [](const Ctx& c, Request& r) {
                r.request.options.conditional =
                    ParseShapConditional(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
              })
      .Choices(choices)
      .Help(help);
  if constexpr (kRegression)
    t.AddParsed("regression_model", OptionType::kText, "linear",
                [](const Ctx& c, Request& r) {
                  r.request.options.regression_model =
                      perfshap::detail::ParseTextOption(c.method, c.option.info, c.text);
                })
        .Choices({"linear", "tree", "forest"})
        .Help(
            "the regressor of conditional regression: linear (least squares, shapr's default), tree or "
            "forest (their regression forms)");
  t.template Add<std::size_t>(
       "conditional_samples",
       [](Request& r) -> std::size_t& { return r.request.options.conditional_samples; })
      .AtLeast(static_cast<double>(kConditionalGroups))
      .AtMost(1e7)
      .Help("draws a coalition and row of a conditional value function (default 1000)");
}

/** @brief background (a number of rows drawn with the seed, `help`) and background_file. */
template <class R>
void DeclareBackground(RequestOptions<WithSolver<R>>& t, std::string help) {
  using Request = WithSolver<R>;
  using Ctx = typename RequestOptions<Request>::ParseContext;
  t.AddParsed("background", OptionType::kInteger, "",
              [](const Ctx& c, Request& r) {
                r.request.background = perfshap::detail::ParseUnsignedOption(c.method, c.option.info, c.text);
              })
      .AtLeast(0)
      .Help(std::move(help));
  t.AddParsed("background_file", OptionType::kText, "",
              [](const Ctx& c, Request& r) {
                DataInput rows;
                rows.path = c.text;
                r.request.background_rows = rows;
              })
      .Value("FILE")
      .Help("CSV of background rows with the model's feature columns (a label column is ignored)");
}

/** @brief A front end's tables, model and learner into a request built on ShapRequest. */
void TakePredictionInputs(const MethodInputs& in, const std::string& method, ShapRequest& request);

}}}  // namespace perfshap::api
