// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "xper_inputs.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <utility>

#include "api/model_columns.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/trees.hpp"

namespace perfshap::cli {

namespace {

/** A model the host shares (its own), as the unique model XperModel owns: forwards every call. */
class SharedModel final : public Model {
 public:
  explicit SharedModel(std::shared_ptr<const Model> model) : model_(std::move(model)) {}
  std::size_t n_features() const override { return model_->n_features(); }
  std::size_t n_outputs() const override { return model_->n_outputs(); }
  bool is_classifier() const override { return model_->is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    model_->Predict(x, n_rows, out);
  }
  std::string Describe() const override { return model_->Describe(); }

 private:
  std::shared_ptr<const Model> model_;
};

Link LinkOf(const std::string& model) {
  if (model == "probit") return Link::kProbit;
  if (model == "logistic") return Link::kLogit;
  if (model == "linear") return Link::kIdentity;
  throw InvalidArgument("--model " + model + " with --coef: use probit, logistic or linear");
}

// The XPER paper's Monte Carlo design, rows 700..999 as the sample (the paper's test part).
Dataset GeneratedSample(std::uint64_t seed) {
  ProbitDesign design;
  design.seed = seed;
  std::vector<std::size_t> rows(300);
  std::iota(rows.begin(), rows.end(), std::size_t{700});
  Dataset d = GenerateProbitDesign(design).SelectRows(rows);
  d.set_source("generated probit design (seed " + std::to_string(seed) + "), rows 700-999");
  return d;
}

// A model given by its coefficients (--coef FILE, or the generated design's true probit);
// `features` becomes the model's column order.
std::unique_ptr<Model> CoefficientModel(const XperCliOptions& o, const std::string& data_name,
                                        std::vector<std::string>& features, detail::XperModelInfo& info) {
  info.kind = o.model.empty() ? "probit" : o.model;
  if (o.coef.empty()) {
    if (info.kind != "probit")
      throw InvalidArgument("--model " + info.kind +
                            " needs --coef FILE or --train FILE; without them the model " +
                            "is the generated design's true probit");
    info.names = features;
    info.coefficients = ProbitDesign{}.beta;
  } else {
    const GlmCoefficients file = ReadGlmCoefficients(o.coef);
    for (std::size_t t = 0; t < file.names.size(); ++t)
      if (std::find(features.begin(), features.end(), file.names[t]) == features.end())
        throw DataError("--coef " + o.coef + " line " + std::to_string(file.lines[t]) + " names '" +
                        file.names[t] + "', which is not a feature of " + data_name +
                        " (features: " + Join(features, ", ") + ")");
    for (const auto& name : features)
      if (std::find(file.names.begin(), file.names.end(), name) == file.names.end())
        throw DataError("feature '" + name + "' of " + data_name + " has no coefficient in --coef " + o.coef +
                        "; add a line '" + name + ",VALUE' or choose the model's columns with --features");
    info.coefficients_file = o.coef;
    info.names = file.names;
    info.coefficients = file.values;
  }
  features = info.names;
  return MakeGlm(LinkOf(info.kind), info.coefficients, info.kind != "linear");
}

}  // namespace

const std::vector<std::string>& GlmModelNames() {
  static const std::vector<std::string> names{"probit", "logistic", "linear"};
  return names;
}

Dataset SelectColumns(const Dataset& d, const std::vector<std::string>& names) {
  std::vector<std::vector<double>> cols;
  for (const auto& name : names) {
    const auto c = d.column(d.FeatureIndex(name));
    cols.emplace_back(c.begin(), c.end());
  }
  Dataset out(names, std::move(cols), std::vector<double>(d.label().begin(), d.label().end()),
              d.label_name());
  out.set_source(d.source());
  return out;
}

namespace {

// Players over `names` (the model's columns, in its order) from the design's players.
std::vector<Player> PlayersInOrder(const std::vector<Player>& players, const std::vector<std::string>& design_names,
                                   const std::vector<std::string>& names) {
  std::vector<Player> out;
  bool grouped = false;
  for (const Player& p : players) {
    Player q{p.name, {}, p.source_columns};
    for (std::size_t c : p.columns) {
      const auto it = std::find(names.begin(), names.end(), design_names[c]);
      q.columns.push_back(static_cast<std::size_t>(it - names.begin()));
    }
    std::sort(q.columns.begin(), q.columns.end());
    grouped = grouped || q.columns.size() > 1;
    out.push_back(std::move(q));
  }
  if (!grouped) out.clear();  // every column a player of its own, in the model's order
  return out;
}

std::vector<std::size_t> Indices(const Dataset& d, const std::vector<std::string>& names) {
  std::vector<std::size_t> idx;
  for (const auto& name : names) idx.push_back(d.FeatureIndex(name));
  return idx;
}
}  // namespace

Dataset LoadXperSample(const XperCliOptions& o, bool regression) {
  const CommonOptions& c = o.common;
  if (c.data.empty()) {
    if (regression)
      throw InvalidArgument("metric " + o.metric +
                            " needs --data with a real-valued target (--label COLUMN); the" +
                            " built-in probit design has a 0/1 label");
    return GeneratedSample(c.seed);
  }
  if (o.coef.empty() && o.train.empty() && o.model_file.empty())
    throw InvalidArgument(
        "--data needs a model: --model probit|logistic|linear --coef FILE, --model M --train FILE or "
        "--model-file m.json (XGBoost)");
  if (c.label.empty()) throw InvalidArgument("--data " + c.data + " needs --label COLUMN (the true target)");
  CsvOptions csv;
  csv.label = c.label;
  csv.positive = c.positive;
  csv.regression = regression || c.positive.empty();
  // An XGBoost model takes missing values (its default directions) unless told otherwise.
  csv.missing = !o.model_file.empty() && c.missing == "error" ? MissingValues::kKeep : MissingPolicy(c);
  return ReadInput(c.data, csv);
}

std::vector<std::string> XperFeatures(const XperCliOptions& o, const Dataset& data) {
  std::vector<std::string> features = o.features.empty() ? data.feature_names() : SplitList(o.features);
  for (const auto& name : features) {
    const auto& all = data.feature_names();
    if (std::find(all.begin(), all.end(), name) == all.end())
      throw InvalidArgument("--features names '" + name + "', which is not a column of " + data.source() +
                            " (columns: " + Join(all, ", ") + ")");
  }
  return features;
}

XperModel MakeXperModel(const XperCliOptions& o, const Dataset& data, std::vector<std::string>& features,
                        const BeforeFit& before_fit) {
  const CommonOptions& c = o.common;
  XperModel m;
  const std::vector<FeatureGroup> groups = LoadGroups(c);
  const bool fits_learner = o.model_file.empty() && o.coef.empty() && !(o.train.empty() && c.data.empty());
  if (!o.model_params.empty() && !fits_learner)
    throw InvalidArgument("--model-param sets an option of the learner fitted with --model NAME --train FILE; "
                          "an already-fitted model (--coef, --model-file, the design's probit) has none",
                          {"model_params"});
  if (const std::shared_ptr<const Model> host =
          o.model_file.empty() ? nullptr : HostModelInput(o.model_file, o.iteration_range)) {
    // The host's own model (a Python function f(X)): the data's columns in order.
    if (host->n_outputs() != 1)
      throw InvalidArgument("the model " + o.model_file + " returns " + std::to_string(host->n_outputs()) +
                                " values a row; XPER decomposes the metric of one score a row (P(y=1) or the "
                                "prediction): return that one column",
                            {"model"});
    if (!groups.empty()) throw InvalidArgument("--groups takes a --train or --coef model's columns, not a function's");
    (void)api::ModelColumns(data, *host, o.model_file, data.source());  // every column, in order, numbers
    m.sample = data;
    m.model = std::make_unique<SharedModel>(host);
    m.info.kind = "function";
    m.info.from_coefficients = false;
    m.info.train = o.model_file;
    m.info.description = host->Describe();
    features = data.feature_names();
    return m;
  }
  if (!o.model_file.empty()) {
    // An XGBoost model, through the generic predict path: its features by name (or in order).
    const auto ensemble = ReadModelInput(o.model_file, ModelReadOptions(o.iteration_range, o.model_file));
    if (ensemble->n_outputs() != 1)
      throw InvalidArgument("--model-file " + o.model_file + " has " + std::to_string(ensemble->n_outputs()) +
                            " outputs; XPER decomposes the metric of a binary classifier or a regressor");
    if (!groups.empty()) throw InvalidArgument("--groups takes a --train or --coef model's columns, not --model-file's");
    std::vector<std::string> names;
    for (std::size_t col : api::ModelColumns(data, *ensemble, o.model_file, data.source()))
      names.push_back(data.feature_names()[col]);
    m.sample = SelectColumns(data, names);
    m.model = std::make_unique<TreeEnsemble>(ensemble->trees(), ensemble->info());
    // An XGBoost file, or a tree model a host built (a scikit-learn model from Python).
    m.info.kind = ensemble->info().rule == SplitRule::kLessFloat ? "xgboost" : "tree_model";
    m.info.from_coefficients = false;
    m.info.train = o.model_file;
    m.info.description = ensemble->Describe();
    m.info.rounds = ensemble->info().rounds;
    features = names;
    return m;
  }
  if (!o.coef.empty() || (o.train.empty() && c.data.empty())) {
    const DesignEncoder encoder(data, Indices(data, features), groups, TextColumns::kOneHot);
    const Design design = encoder.Apply(data);
    std::vector<std::string> names = encoder.column_names();
    m.model = CoefficientModel(o, data.source(), names, m.info);
    m.sample = SelectColumns(design.data, names);
    m.players = PlayersInOrder(encoder.players(), encoder.column_names(), names);
    features = names;
    return m;
  }
  m.learner = MakeCommandLearner(o.model, ModelParams(o.model_params));
  CsvOptions csv;
  csv.label = c.label.empty() ? std::string("y") : c.label;
  csv.positive = c.positive;
  csv.regression = !m.learner->is_classifier();
  csv.missing = MissingPolicy(c);
  const Dataset train = ReadInput(o.train, csv);
  std::vector<std::size_t> columns;
  for (const auto& name : features) {
    const auto& names = train.feature_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw DataError("--train " + o.train + " has no column '" + name + "' (a feature of " + data.source() +
                      ")");
    columns.push_back(static_cast<std::size_t>(it - names.begin()));
  }
  // The design is fitted on the training file (its text levels) and applied to both files.
  const DesignEncoder encoder(train, columns, groups, m.learner->text_columns());
  Design train_design = encoder.Apply(train);
  std::vector<std::size_t> rows(train.n_rows()), all(train_design.data.n_features());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (before_fit) before_fit(rows.size(), all.size(), encoder.players().size(), *m.learner);
  m.model = m.learner->Train(train_design.data, rows, all);
  m.train_sample = std::move(train_design.data);
  m.sample = encoder.Apply(data).data;
  features = encoder.column_names();
  m.players = PlayersInOrder(encoder.players(), features, features);
  m.info.kind = m.learner->name();
  m.info.learner_params = m.learner->params();
  m.info.from_coefficients = false;
  m.info.train = o.train;
  m.info.n_train = train.n_rows();
  m.info.description = m.model->Describe();
  return m;
}

}  // namespace perfshap::cli
