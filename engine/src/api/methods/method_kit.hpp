// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the methods' files share (api/methods/*_method.cpp): the solver their options choose
// before it goes into the request, and the tables and model a front end hands over, taken into
// the request once a file option may have named them too.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A method's request and the solver its options choose (requests hold the solver and its
 *  sampling apart, or inside their options). */
template <class R>
struct WithSolver {
  R request;
  SolverChoice solver;
};

namespace kit_detail {
template <class T>
T& Reach(T& t) {
  return t;
}
template <class T, class M, class... Ms>
decltype(auto) Reach(T& t, M member, Ms... rest) {
  return Reach(t.*member, rest...);
}
}  // namespace kit_detail

/** @brief The accessor of the field a request of type R reaches through `members` (each a
 *  pointer to a member of the one before): Member<R>(&R::options, &Options::seed). */
template <class R, class... Ms>
auto Member(Ms... members) {
  using V = std::remove_reference_t<decltype(kit_detail::Reach(std::declval<R&>(), members...))>;
  return std::function<V&(R&)>([members...](R& r) -> V& { return kit_detail::Reach(r, members...); });
}

/** @brief The request of type R that `given` sets, by the table `Make()` builds. */
template <class R, auto Make>
R ParseWith(const GivenOptions& given) {
  R request;
  OptionsOnce<Make>().Parse(given, request);
  return request;
}

/** @brief The options every method with a Shapley solver ends with: `seed` (the run's, with
 *  `seed_help`), the solver's options unless `with_solver` is false, and the execution's. */
template <class R>
void DeclareSeedSolverExecution(RequestOptions<WithSolver<R>>& t, std::function<std::uint64_t&(WithSolver<R>&)> seed,
                                std::string seed_help,
                                std::function<ExecutionOptions&(WithSolver<R>&)> execution, bool with_solver = true) {
  t.template Add<std::uint64_t>("seed", std::move(seed)).Help(std::move(seed_help));
  if (with_solver)
    t.template Include<SolverChoice>(SolverOptionGroup(), [](WithSolver<R>& r) -> SolverChoice& { return r.solver; });
  t.template Include<ExecutionOptions>(ExecutionOptionGroup(), std::move(execution));
}

/** @brief The exact solver's player limit of a method (1..30; max_features is its old name):
 *  `coalitions` says what one coalition costs ("coalitions", "trainings per split"). */
template <class R>
void DeclareExactLimit(RequestOptions<R>& t, std::function<int&(R&)> field, const std::string& coalitions) {
  t.template Add<int>("exact_limit", std::move(field))
      .AtLeast(1)
      .AtMost(30)
      .Alias("max_features")
      .Sets("max_players")
      .Help("largest number of players solved exactly (2^n " + coalitions + ")");
}

/** @brief train: a training sample's CSV file into `field`. */
template <class R>
void DeclareTrainFile(RequestOptions<R>& t, std::function<std::optional<DataInput>&(R&)> field, std::string help) {
  t.AddParsed("train", OptionType::kText, "",
              [field](const typename RequestOptions<R>::ParseContext& c, R& r) { field(r).emplace().path = c.text; })
      .Value("FILE")
      .Help(std::move(help));
}

/** @brief The solver the options chose into a request's, the sampled solvers' streams drawn from
 *  the run's `seed`. */
inline void ApplySolver(const SolverChoice& chosen, std::uint64_t seed, SolverSpec& solver, SamplingOptions& sampling) {
  solver = chosen.solver;
  sampling = chosen.sampling;
  sampling.seed = seed;
}

/** @brief A front end's `table` as `input` (`what`: "the data", "the training sample"), unless
 *  none is given.
 *  @throws InvalidArgument (`file_option`) when the options named a file for it too. */
void TakeTable(const std::shared_ptr<const Table>& table, DataInput& input, const std::string& method,
               const char* what, const char* file_option);
void TakeTable(const std::shared_ptr<const Table>& table, std::optional<DataInput>& input, const std::string& method,
               const char* what, const char* file_option);

/** @brief A front end's model as `model`, keeping the iteration_range the options gave.
 *  @throws InvalidArgument (model_file) when the options named a model file too. */
void TakeModel(const std::optional<GivenModelInput>& given, GivenModelInput& model, const std::string& method);

/** @brief Whether `given` names the option `name` (in either spelling). */
bool Named(const GivenOptions& given, const char* name);

/** @brief A front end's explicit splits (MethodInputs::splits) as `splits`' own.
 *  @throws InvalidArgument (cv, split) when a drawn plan (cv) is given with explicit splits;
 *  (split) for splits in memory and a file. */
void TakeSplits(const MethodInputs& in, const GivenOptions& given, const std::string& method,
                SplitInput& splits);
}}}  // namespace perfshap::api
