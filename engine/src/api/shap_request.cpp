// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/shap_request.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>
#include <utility>

#include "api/model_columns.hpp"
#include "api/run_inputs.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "report/figure_bounds.hpp"

namespace perfshap::inline v0::api {

namespace {

/** Column-major values of `rows` of the columns `columns` of `d`. */
std::vector<double> Gather(const Dataset& d, std::span<const std::size_t> columns,
                           std::span<const std::size_t> rows) {
  std::vector<double> x(columns.size() * rows.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto col = d.column(columns[c]);
    for (std::size_t r = 0; r < rows.size(); ++r) x[c * rows.size() + r] = col[rows[r]];
  }
  return x;
}

/** `count` rows of n drawn without replacement from stream (seed, 11), in increasing order; all
 *  of them when count >= n. */
std::vector<std::size_t> DrawRows(std::size_t n, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (count >= n) return all;
  RandomStream rng(seed, 11);
  for (std::size_t i = 0; i < count; ++i) std::swap(all[i], all[i + rng.Below(n - i)]);
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

/** How the explained rows (and a background file) are read: their label column, when they have
 *  one, is not a feature (the rows to explain need no label). A file is read once (it may be a
 *  pipe): the header says which. A given model takes missing cells (a tree model's default
 *  directions) unless told otherwise. */
CsvOptions RowsCsv(const DataInput& data, bool keep_missing) {
  CsvOptions csv;
  csv.label = data.label;
  csv.label_optional = true;
  csv.allow_no_label = csv.label.empty();
  csv.regression = data.positive.empty();
  csv.positive = data.positive;
  csv.missing = keep_missing && data.missing == MissingValues::kError ? MissingValues::kKeep : data.missing;
  return csv;
}

/** The rows of the data explained: every row, or [first, last]. */
detail::ShapRun::RowRange ExplainedRows(const std::optional<std::pair<std::size_t, std::size_t>>& range,
                                        std::size_t n, const std::string& data_name) {
  if (!range) return {0, n};
  const auto [first, last] = *range;
  const std::string text = std::to_string(first) + ".." + std::to_string(last);
  if (first > last)
    throw InvalidArgument(
        "the rows " + text + ": give the first and last rows to explain (0-based, first <= last)", {"rows"});
  if (last >= n)
    throw InvalidArgument("the rows " + text + " go past the last row of the data " + data_name + " (" +
                              (n == 0 ? std::string("it has none") : std::to_string(n - 1)) + ")",
                          {"rows"});
  return {first, last - first + 1};
}

/** The indices of a range of rows, for the methods that take a list. */
std::vector<std::size_t> RowList(const detail::ShapRun::RowRange& rows) {
  std::vector<std::size_t> list(rows.size());
  std::iota(list.begin(), list.end(), rows.first);
  return list;
}

const char* ApproachName(ShapApproach a) {
  switch (a) {
    case ShapApproach::kInterventional:
      return "interventional";
    case ShapApproach::kRetrain:
      return "retrain";
    case ShapApproach::kTree:
      return "tree";
  }
  return "interventional";
}

/** The tree learners' options as learner params (a forest's seed from the run's unless given),
 *  each set once. */
LearnerParams TreeParams(const ShapModelInput& m, std::uint64_t seed) {
  LearnerParams params = m.learner.params;
  const std::string& name = m.learner.name;
  const bool trees = name == "tree" || name == "forest";
  const auto set = [&](const std::optional<int>& value, const char* key, const char* option) {
    if (!value) return;
    if (!trees)
      throw InvalidArgument(std::string(option) +
                                " is an option of the tree and forest learners; the learner " +
                                (name.empty() ? std::string("given") : name) + " does not take it: drop it",
                            {option});
    if (params.count(key) != 0)
      throw InvalidArgument(std::string("the learner option ") + key + " is set twice (by " + option +
                                " and by the learner options); give it once",
                            {option, "model_params"});
    params[key] = std::to_string(*value);
  };
  set(m.max_depth, "max_depth", "max_depth");
  if (name == "tree" && m.trees)
    throw InvalidArgument("trees is the number of trees of a forest; a tree learner fits one: drop it",
                          {"trees"});
  set(m.trees, "n_estimators", "trees");
  if (name == "forest" && params.count("seed") == 0) params["seed"] = std::to_string(seed);
  return params;
}

}  // namespace

ShapApproach ParseShapApproach(const std::string& name) {
  if (name == "interventional") return ShapApproach::kInterventional;
  if (name == "retrain") return ShapApproach::kRetrain;
  if (name == "tree") return ShapApproach::kTree;
  throw InvalidArgument("the approach " + name + ": choose interventional, retrain or tree", {"approach"});
}

ShapOutputScale ParseShapOutput(const std::string& name) {
  if (name == "probability") return ShapOutputScale::kPrediction;
  if (name == "margin") return ShapOutputScale::kMargin;
  throw InvalidArgument("the output " + name + ": choose probability or margin", {"output"});
}

namespace {

/** A game's interaction values (outputs: rows x model outputs) in TreeShapInteractionValues'
 *  layout: the matrix rows of `features` (none: every feature and the base value's row). */
TreeShapInteractionValues InteractionMatrix(const InteractionValues& iv, std::size_t n_rows, std::size_t K,
                                            const std::vector<std::size_t>& features) {
  const auto F = static_cast<std::size_t>(iv.n_players);
  TreeShapInteractionValues v;
  v.n_rows = n_rows;
  v.n_outputs = K;
  v.n_features = F;
  v.matrix_rows = features;
  if (features.empty())
    for (std::size_t j = 0; j <= F; ++j) v.matrix_rows.push_back(j);
  const std::size_t R = v.matrix_rows.size();
  v.values.assign(n_rows * K * R * (F + 1), 0.0);
  if (!iv.se.empty()) v.se.assign(v.values.size(), 0.0);
  v.base.assign(K, 0.0);
  for (std::size_t k = 0; k < K; ++k) v.base[k] = iv.base.empty() ? 0.0 : iv.base[k];
  for (std::size_t r = 0; r < n_rows; ++r)
    for (std::size_t k = 0; k < K; ++k) {
      const std::size_t o = r * K + k;
      for (std::size_t a = 0; a < R; ++a) {
        const std::size_t i = v.matrix_rows[a];
        const std::size_t at = ((r * K + k) * R + a) * (F + 1);
        if (i == F) {
          v.values[at + F] = iv.base[o];
          continue;
        }
        for (std::size_t j = 0; j < F; ++j) {
          v.values[at + j] = iv(static_cast<int>(i), static_cast<int>(j), o);
          if (!iv.se.empty()) v.se[at + j] = iv.se[(i * F + j) * iv.n_outputs + o];
        }
      }
    }
  return v;
}

}  // namespace

ShapResponse RunShap(const ShapRequest& request) {
  const DataInput& in = request.data;
  const ShapModelInput& m = request.model;
  const bool given_model = m.given();
  const bool tree = request.approach == ShapApproach::kTree;
  const bool retrain = request.approach == ShapApproach::kRetrain;
  if (in.generated()) throw InvalidArgument("shap needs the rows to explain (data)", {"data"});
  const bool names_learner = !m.learner.name.empty() || m.learner.learner != nullptr;
  if (!given_model && !names_learner)
    throw InvalidArgument(
        "give the model: an XGBoost model (a model file), a tree model or function, or a learner with the "
        "training sample to fit it on",
        {"model_file", "learner", "train"});
  if (given_model && names_learner)
    throw InvalidArgument("the model given is the model: drop the learner " + m.learner.name, {"learner"});
  if (given_model && m.train)
    throw InvalidArgument("the model given is already fitted: drop the training sample (it is for a learner)",
                          {"train"});
  if (!given_model && !m.train)
    throw InvalidArgument("the learner " + (m.learner.name.empty() ? std::string("given") : m.learner.name) +
                              " needs the training sample to fit it on",
                          {"train"});
  if (!m.learner.params.empty() && given_model)
    throw InvalidArgument(
        "learner options set the learner fitted on a training sample; a given model (an XGBoost "
        "file, a tree model, a function) is already fitted",
        {"model_params"});
  if (request.options.solver_options.keep_samples)
    throw InvalidArgument("keeping the samples is not offered by shap; drop it", {"keep_samples"});
  if (tree && request.output == ShapOutputScale::kPrediction)
    throw InvalidArgument(
        "TreeSHAP explains the margin (raw score) of a tree model; for probabilities use the interventional "
        "approach",
        {"output", "approach"});
  if (retrain && given_model)
    throw InvalidArgument(
        "the retrain approach refits the learner on every coalition: it needs a learner and a "
        "training sample",
        {"approach", "model_file"});
  if (request.background_rows && request.background)
    throw InvalidArgument("give either a number of background rows or the background rows, not both",
                          {"background", "background_file"});
  if (request.background && *request.background == 0)
    throw InvalidArgument("the background must be at least 1 row", {"background"});
  if (!given_model && m.iteration_range)
    throw InvalidArgument(
        "iteration_range selects boosting rounds of an XGBoost model; a learner has none: drop it",
        {"iteration_range"});

  ShapOptions opt = request.options;
  opt.solver_options.max_players = kShapExactPlayerLimit;
  opt.output = request.output.value_or(ShapOutputScale::kPrediction);
  if (tree) opt.output = ShapOutputScale::kMargin;
  ExecutionOptions& execution = opt.solver_options.execution;

  ShapResponse response;
  detail::ShapRun& run = response.run;
  run.seed = request.seed;
  run.threads = ResolvedThreads(execution);
  std::shared_ptr<const Model> model;
  std::shared_ptr<const Learner> learner;
  Dataset explain;            // the explained rows' source, the model's columns
  Dataset background_source;  // where background rows are drawn from, the model's columns
  std::vector<std::size_t> model_columns;
  std::vector<Player> players;
  std::vector<std::string> feature_names;
  std::vector<Player> retrain_players;           // the training sample's players (retrain)
  std::shared_ptr<const DesignEncoder> encoder;  // the training sample's design (text one-hot, groups)
  std::vector<std::size_t> train_rows_all;       // every row of the training sample

  if (given_model) {
    // The host's own model (a function), or a tree model (an XGBoost file or text, a converted one).
    const std::string& name = m.display_name();
    if (m.host_model != nullptr) {
      CheckFunctionModel(m);
      if (request.approach != ShapApproach::kInterventional)
        throw InvalidArgument(std::string("the ") + ApproachName(request.approach) +
                                  " approach needs a tree model or a learner; the model " + name +
                                  " is a function, explained by the interventional approach",
                              {"approach"});
      model = m.host_model;
    } else {
      const std::shared_ptr<const TreeEnsemble> ensemble = LoadTreeModel(m);
      run.rounds = ensemble->info().rounds;
      model = ensemble;
    }
    const Dataset data = ReadRows(in, RowsCsv(in, true));
    model_columns = ModelColumns(data, *model, name, "the data " + in.name());
    for (std::size_t col : model_columns) feature_names.push_back(data.feature_names()[col]);
    explain = data;
    background_source = data;
    run.model = model->Describe();
    run.model_source = name;
    run.data = data.source();
    if (!in.groups.empty())
      throw InvalidArgument(
          "groups take the columns of a training sample; a given model's features are single "
          "columns",
          {"groups"});
  } else {
    const LearnerParams params = TreeParams(m, request.seed);
    LearnerInput learner_input = m.learner;
    if (learner_input.learner == nullptr) learner_input.params = params;
    learner = MakeLearnerOf(learner_input);
    const bool tree_learner =
        m.learner.learner == nullptr && (m.learner.name == "tree" || m.learner.name == "forest");
    if (in.label.empty())
      throw InvalidArgument("the training sample " + m.train->name() + " needs the name of its label column",
                            {"label"});
    CsvOptions csv;
    csv.label = in.label;
    csv.positive = in.positive;
    csv.regression = !learner->is_classifier() || (in.positive.empty() && tree_learner);
    csv.missing = in.missing;
    const Dataset train_raw = ReadRows(*m.train, csv);
    CsvOptions data_csv = RowsCsv(in, false);
    data_csv.regression = true;
    data_csv.positive.clear();
    const Dataset data_raw = ReadRows(in, data_csv);
    std::vector<std::size_t> columns(train_raw.n_features());
    std::iota(columns.begin(), columns.end(), std::size_t{0});
    encoder = std::make_shared<const DesignEncoder>(train_raw, columns, in.groups, learner->text_columns());
    Design train_design = encoder->Apply(train_raw);
    explain = encoder->Apply(data_raw).data;
    feature_names = encoder->column_names();
    players = encoder->players();
    model_columns.resize(feature_names.size());
    std::iota(model_columns.begin(), model_columns.end(), std::size_t{0});
    std::vector<std::size_t> train_rows(train_design.data.n_rows());
    std::iota(train_rows.begin(), train_rows.end(), std::size_t{0});
    // Trees and forests take any number of classes (the label's distinct values); the other
    // learners, and trees given a positive class, a 0/1 label.
    std::vector<double> classes(train_design.data.label().begin(), train_design.data.label().end());
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    const bool zero_one = classes.size() == 2 && classes[0] == 0.0 && classes[1] == 1.0;
    {
      // Before the fit: the fit's and the explanation's estimates (a request the solver or the
      // memory refuses does not start a fit of thousands of columns).
      ShapShape shape;
      shape.approach = ApproachName(request.approach);
      shape.rows = ExplainedRows(request.rows, explain.n_rows(), in.name()).size();
      shape.background = std::min(request.background.value_or(100), train_design.data.n_rows());
      shape.features = model_columns.size();
      shape.players = players.size();
      shape.train_rows = train_rows.size();
      // The explanation's estimate first: it carries the solver's refusal (the exact solver past
      // its limit), which must come before the fit's estimate is said.
      const CostEstimate explanation = tree ? CostEstimate{} : EstimateShapCost(shape, opt);
      CheckCost(EstimateFitCost("shap", *learner, train_rows.size(), model_columns.size()), execution,
                kFitRemedy, {"features", "groups"});
      if (!tree) {
        CheckCost(explanation, execution, kShapRemedy, {"rows", "background", "solver", "budget"});
        execution.on_estimate = nullptr;  // said once
      }
    }
    const bool model_from_learner = !(tree_learner && !zero_one && learner->is_classifier());
    if (!model_from_learner) {
      if (retrain)
        throw InvalidArgument("the retrain approach takes a 0/1 label; name the positive class",
                              {"approach", "positive"});
      // The class-fraction trees of a label with more than two classes take the depth, the
      // number of trees and the seed only: another option would be silently left out.
      if (!m.learner.params.empty())
        throw InvalidArgument(
            "learner options are not applied to a " + m.learner.name +
                " of a label with more than two classes (only max_depth, trees and the seed are); "
                "drop them, or name the positive class",
            {"model_params"});
      ForestOptions fo;
      fo.max_depth = m.max_depth.value_or(0);
      fo.seed = request.seed;
      fo.n_estimators = m.trees.value_or(100);
      fo.execution.threads = execution.threads;
      if (m.learner.name == "tree") {
        model = FitTree(fo, train_design.data, train_rows, model_columns);
      } else {
        fo.max_features = "sqrt";
        model = FitForest(fo, train_design.data, train_rows, model_columns);
      }
    } else {
      model = learner->Train(train_design.data, train_rows, model_columns);
    }
    background_source = std::move(train_design.data);
    train_rows_all = std::move(train_rows);
    run.model = model->Describe();
    run.model_source =
        (learner->name().empty() ? m.learner.name : learner->name()) + " trained on " + m.train->name();
    if (model_from_learner) {
      run.learner = learner->name();
      run.learner_params = learner->params();
    }
    run.data = data_raw.source();
    // Players as the encoder grouped them (a one-hot text column, a group); none when every
    // column is its own.
    retrain_players = players;
    bool all_single = true;
    for (const Player& p : players) all_single = all_single && p.columns.size() == 1;
    if (all_single && in.groups.empty()) players.clear();
  }

  const detail::ShapRun::RowRange rows = ExplainedRows(request.rows, explain.n_rows(), in.name());
  run.rows = rows;
  if (request.explain_row) {
    if (*request.explain_row < rows.first || *request.explain_row - rows.first >= rows.size())
      throw InvalidArgument("the explained row " + std::to_string(*request.explain_row) +
                                " is not among the rows explained (" + std::to_string(rows.first) + ".." +
                                std::to_string(rows.first + rows.size() - 1) + ")",
                            {"explain_row"});
    run.explain_row = *request.explain_row - rows.first;
  }
  // The explained rows: read in place from the data set's columns by TreeSHAP when they are all of
  // them (a large table is then held once, the caller's), else gathered into one block.
  const bool in_place = tree && rows.size() == explain.n_rows();
  const std::vector<std::size_t> row_list = in_place ? std::vector<std::size_t>() : RowList(rows);
  const std::vector<double> x = in_place ? std::vector<double>() : Gather(explain, model_columns, row_list);
  const RowMatrix row_matrix{x, rows.size()};
  // The background: the rows given, or rows drawn with the seed.
  std::vector<double> bg;
  const bool wants_background = request.approach == ShapApproach::kInterventional ||
                                (tree && (request.background_rows || request.background));
  if (wants_background) {
    if (request.background_rows) {
      DataInput source = *request.background_rows;
      source.label = in.label;
      source.positive = in.positive;
      source.missing = in.missing;
      const Dataset raw = ReadRows(source, RowsCsv(source, given_model));
      if (raw.n_rows() == 0)
        throw DataError("the background rows " + source.name() + " have no rows", {"background_file"});
      // A learner's columns are the design's (text one-hot): the rows are encoded the same way.
      const Dataset file = encoder ? encoder->Apply(raw).data : raw;
      std::vector<std::size_t> cols;
      for (const std::string& name : feature_names) {
        const auto& have = file.feature_names();
        const auto it = std::find(have.begin(), have.end(), name);
        if (it == have.end())
          throw DataError("the background rows " + source.name() + " have no column '" + name +
                              "', a feature of the model; give them the model's feature columns",
                          {"background_file"});
        cols.push_back(static_cast<std::size_t>(it - have.begin()));
      }
      std::vector<std::size_t> all(file.n_rows());
      std::iota(all.begin(), all.end(), std::size_t{0});
      bg = Gather(file, cols, all);
      run.background_rows = file.n_rows();
      run.background_source = source.name();
    } else {
      const auto drawn = DrawRows(background_source.n_rows(), request.background.value_or(100), request.seed);
      bg = Gather(background_source, model_columns, drawn);
      run.background_rows = drawn.size();
      run.background_source = "drawn from " + (given_model ? in.name() : m.train->name()) + " with the seed";
    }
    run.background_given = request.background_rows.has_value() || request.background.has_value();
  }
  const RowMatrix background{bg, bg.size() / std::max<std::size_t>(model_columns.size(), 1)};

  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(execution)
      .Data(explain)
      .GivenModel(*model, explain, model_columns, m.host_model != nullptr)
      .Text("background", std::string(reinterpret_cast<const char*>(bg.data()), bg.size() * sizeof(double)))
      .Agree();
  ShapExplanation& e = response.explanation;
  const bool wants_interactions = request.interactions || !request.interaction_features.empty();
  if (retrain && wants_interactions)
    throw InvalidArgument(
        "interaction values come from the tree or the interventional approach, not retraining",
        {"interactions", "approach"});
  // The matrix rows asked for: model feature indices (none named: every feature and the base).
  std::vector<std::size_t> interaction_rows;
  for (const std::string& name : request.interaction_features) {
    const auto it = std::find(feature_names.begin(), feature_names.end(), name);
    if (it == feature_names.end()) {
      std::string names;
      for (std::size_t j = 0; j < feature_names.size() && j < 8; ++j)
        names += (j > 0 ? ", " : "") + feature_names[j];
      if (feature_names.size() > 8) names += ", ...";
      throw InvalidArgument("interaction feature '" + name + "' is not one of the model's " +
                                std::to_string(feature_names.size()) + " features (" + names + ")",
                            {"interaction_features"});
    }
    interaction_rows.push_back(static_cast<std::size_t>(it - feature_names.begin()));
  }
  if (tree) {
    const auto* ensemble = dynamic_cast<const TreeEnsemble*>(model.get());
    if (ensemble == nullptr)
      throw InvalidArgument(
          "the tree approach needs a tree model: the learner tree or forest, or an XGBoost model",
          {"approach", "learner"});
    if (!in.groups.empty())
      throw InvalidArgument(
          "TreeSHAP explains single features: drop the groups or use the interventional approach",
          {"groups", "approach"});
    FeatureColumns columns;
    columns.n_rows = rows.size();
    for (std::size_t c = 0; c < model_columns.size(); ++c)
      columns.columns.push_back(in_place ? explain.column(model_columns[c]).data()
                                         : x.data() + c * rows.size());
    e = ExplainTrees(*ensemble, columns, background, feature_names, execution);
    if (wants_interactions) {
      TreeInteractionOptions io;
      io.features = interaction_rows;
      response.interactions = ExplainTreeInteractions(*ensemble, columns, background, io, execution);
    }
  } else if (retrain) {
    e = ExplainByRetraining(*learner, background_source, train_rows_all, explain, row_list, retrain_players,
                            opt);
  } else {
    e = ExplainInterventional(*model, row_matrix, background, players, feature_names, opt);
    if (wants_interactions) {
      if (!players.empty())
        throw InvalidArgument("interaction values take one player per feature: drop the groups",
                              {"interactions", "groups"});
      response.interactions = InteractionMatrix(
          ExplainInterventionalInteractions(*model, row_matrix, background, feature_names, opt), rows.size(),
          model->n_outputs(), interaction_rows);
    }
  }
  // The beeswarm's colours: each player's value for the rows it shows (single-column players only).
  const std::size_t P = e.n_players;
  const std::vector<std::size_t> shown = detail::RowsShown(rows.size());
  run.player_values.assign(shown.size() * P, std::numeric_limits<double>::quiet_NaN());
  if (P == model_columns.size())
    for (std::size_t k = 0; k < shown.size(); ++k)
      for (std::size_t j = 0; j < P; ++j)
        run.player_values[k * P + j] = explain.column(model_columns[j])[rows[shown[k]]];
  return response;
}

}  // namespace perfshap::inline v0::api
