// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// XGBoost models saved as JSON (Booster.save_model("m.json")), read into a TreeEnsemble. The
// layout, as XGBoost 1.7 writes it (and 2.x, which keeps the same keys):
//   learner.learner_model_param: base_score ("5E-1"), num_class, num_feature, num_target (strings)
//   learner.objective.name, learner.feature_names, learner.attributes.best_iteration
//   learner.gradient_booster: name "gbtree"; model.trees[] and model.tree_info[] (each tree's
//     output group, the class it adds to)
//   a tree: tree_param.num_nodes, and per node left_children, right_children (-1 at leaves),
//     split_indices, split_conditions (the threshold, or a leaf's value with the learning rate
//     applied), default_left (0/1 or booleans), sum_hessian (the cover), split_type (1 for a
//     categorical split).
// XGBoost keeps thresholds, leaf values and hessian sums as float32 and writes each in its
// shortest round-trip form: rounding the parsed double to float recovers the value XGBoost uses.
// Pruned trees (tree_method "exact" with gamma > 0) keep their deleted nodes in the arrays, with
// no parent linking to them: only the nodes the root reaches are kept.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "data/json_text.hpp"
#include "data/message_text.hpp"
#include "models/trees/tree_checks.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap::inline v0 {
namespace {

using Json = nlohmann::json;

constexpr const char* kSaveAgain = "save the model again with Booster.save_model(\"model.json\")";
constexpr const char* kSupportedObjectives =
    "binary:logistic, binary:logitraw, binary:hinge, reg:logistic, reg:squarederror, reg:squaredlogerror, "
    "reg:pseudohubererror, reg:absoluteerror, count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft, "
    "rank:pairwise, rank:ndcg, rank:map, multi:softprob and multi:softmax";

/** @brief v rounded to float32 as XGBoost holds it; beyond float's range, an infinity (a plain
 *  cast of such a value is undefined). */
double AsFloat(double v) noexcept {
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    return std::copysign(std::numeric_limits<double>::infinity(), v);
  return static_cast<double>(static_cast<float>(v));
}

/** @brief s as a number, all of it ("5E-1", "NaN", "-Infinity": what std::from_chars reads). */
bool ParseNumberText(std::string_view s, double& out) {
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && first != last;
}

/**
 * @brief XGBoost writes non-finite floats as the bare words NaN, Infinity and -Infinity, which
 * JSON lacks (a categorical split's condition is NaN): the text with each of them outside a
 * string quoted ("NaN"), so that it parses; nothing when there is none.
 */
std::optional<std::string> QuoteNonFiniteWords(const std::string& text) {
  std::optional<std::string> out;
  bool in_string = false;
  std::size_t copied = 0;  // text[0, copied) is in *out
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != 'N' && c != 'I' && c != '-') continue;
    std::size_t length = 0;
    for (const std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
      if (text.compare(i, word.size(), word) == 0) length = word.size();
    }
    if (length == 0) continue;
    if (!out) out.emplace().reserve(text.size() + 64);
    out->append(text, copied, i - copied);
    out->append("\"").append(text, i, length).append("\"");
    i += length - 1;
    copied = i + 1;
  }
  if (out) out->append(text, copied, std::string::npos);
  return out;
}

/** @brief The model's context in messages: "XGBoost model m.json: ". */
class Reader {
 public:
  explicit Reader(const std::string& source) : prefix_("XGBoost model " + detail::EscapeControls(source) + ": ") {}

  [[noreturn]] void Fail(const std::string& what) const { throw DataError(prefix_ + what); }

  /** @brief The member `key` of object `parent` (named `where` in messages), which must exist. */
  const Json& Member(const Json& parent, const char* key, const std::string& where) const {
    if (!parent.is_object()) Fail(where + " is not a JSON object; " + kSaveAgain);
    const auto it = parent.find(key);
    if (it == parent.end()) Fail(where + "." + key + " is missing; " + kSaveAgain);
    return *it;
  }

  /** @brief A count XGBoost writes as a decimal string ("3") or, in other versions, a number. */
  std::int64_t Count(const Json& v, const std::string& where) const {
    std::int64_t out = -1;
    if (v.is_number_integer()) {
      out = v.get<std::int64_t>();
    } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
               std::fabs(v.get<double>()) < 1e15) {
      out = static_cast<std::int64_t>(v.get<double>());
    } else if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) out = -1;
    }
    if (out < 0) Fail(where + " is " + Shown(v) + ", not a count; " + kSaveAgain);
    return out;
  }

  /** @brief A number written as a JSON number or a string ("5E-1", or "[5E-1]" in XGBoost 3). */
  double Number(const Json& v, const std::string& where) const {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      std::string_view s = v.get_ref<const std::string&>();
      if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
      double out = 0.0;
      if (ParseNumberText(s, out)) return out;
    }
    Fail(where + " is " + Shown(v) + ", not a number; " + kSaveAgain);
  }

  /** @brief An array of `n` numbers (booleans read as 0 and 1, "NaN" and "Infinity" as such). */
  std::vector<double> Numbers(const Json& tree, const char* key, std::size_t n, const std::string& where) const {
    const Json& a = Member(tree, key, where);
    if (!a.is_array()) Fail(where + "." + key + " is not an array; " + kSaveAgain);
    if (a.size() != n)
      Fail(where + "." + key + " has " + std::to_string(a.size()) + " values for " + std::to_string(n) +
           " nodes (tree_param.num_nodes): the arrays are inconsistent; " + kSaveAgain);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Json& v = a[i];
      if (v.is_boolean()) {
        out[i] = v.get<bool>() ? 1.0 : 0.0;
      } else if (v.is_number()) {
        out[i] = v.get<double>();
      } else if (!v.is_string() || !ParseNumberText(v.get_ref<const std::string&>(), out[i])) {
        Fail(where + "." + key + "[" + std::to_string(i) + "] is " + Shown(v) + ", not a number; " + kSaveAgain);
      }
    }
    return out;
  }

  /** @brief An index read as a double, as the file wrote it: "7", "-2", "1.5". */
  static std::string Index(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
    return Shown(Json(v));
  }

  /** @brief A JSON value on one line, cut short, for a message (never more of it formatted
   *  than shown, however large or deep). */
  static std::string Shown(const Json& v) { return detail::JsonSnippet(v, detail::kMaxQuotedChars, true); }

  const std::string& prefix() const noexcept { return prefix_; }

 private:
  std::string prefix_;
};

/** @brief How base_score (on the output scale) moves to the margin: XGBoost's ProbToMargin. */
enum class BaseLink : std::uint8_t {
  kIdentity,  // the margin's base is base_score
  kLogit,     // base_score is a probability: the base is its logit
  kLog,       // base_score is a positive mean: the base is its log
};

/** @brief What the objective makes of the model. */
struct Objective {
  TreeTransform transform = TreeTransform::kIdentity;
  bool classifier = false;
  bool multiclass = false;
  BaseLink base = BaseLink::kIdentity;
};

/** @brief The gbtree objectives, with XGBoost's (1.7 to 3.x) prediction transform and
 *  base_score link; what shap's TreeExplainer explains on the margin. */
struct ObjectiveEntry {
  const char* name;
  Objective objective;
};

constexpr ObjectiveEntry kObjectives[] = {
    {"binary:logistic", {TreeTransform::kLogistic, true, false, BaseLink::kLogit}},
    // XGBoost's predict() returns binary:logitraw's margin; as a classifier perfshap predicts
    // its probability, the logistic of the margin (the margin scale is XGBoost's output). Its
    // base_score is added to the margin as it is.
    {"binary:logitraw", {TreeTransform::kLogistic, true, false, BaseLink::kIdentity}},
    {"binary:hinge", {TreeTransform::kStep, true, false, BaseLink::kIdentity}},
    // reg:logistic: a regression whose predictions lie in (0, 1).
    {"reg:logistic", {TreeTransform::kLogistic, false, false, BaseLink::kLogit}},
    {"reg:squarederror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    // reg:linear is the name XGBoost before 1.0 gave reg:squarederror.
    {"reg:linear", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:squaredlogerror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:pseudohubererror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:absoluteerror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"count:poisson", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"reg:gamma", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"reg:tweedie", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"survival:cox", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"survival:aft", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"rank:pairwise", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"rank:ndcg", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"rank:map", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    // multi:softmax predicts the class index in XGBoost; its margins are multi:softprob's, and
    // perfshap predicts the class probabilities of both.
    {"multi:softprob", {TreeTransform::kSoftmax, true, true, BaseLink::kIdentity}},
    {"multi:softmax", {TreeTransform::kSoftmax, true, true, BaseLink::kIdentity}},
};

Objective ReadObjective(const Reader& r, const std::string& name) {
  for (const ObjectiveEntry& entry : kObjectives)
    if (name == entry.name) return entry.objective;
  r.Fail("the objective is " + detail::Quoted(name) + ", which perfshap does not read; it reads " +
         kSupportedObjectives + ": retrain with one of them");
}

/** @brief A one-line account of a parse error: "byte 12: syntax error ...", printable ASCII. */
std::string ParseErrorText(const Json::parse_error& e) {
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 12: syntax error ..."
  const auto at = what.find("parse error");
  if (at != std::string::npos) {
    const auto colon = what.find(": ", at);
    what = colon == std::string::npos ? what.substr(at) : what.substr(colon + 2);
  }
  for (char& c : what) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e) c = '?';
  }
  return "byte " + std::to_string(e.byte) + ": " + detail::ShortParserMessage(what);
}

/**
 * @brief Whether text looks like UBJSON holding an XGBoost learner (Booster.save_model("m.ubj")):
 * an object whose first key, "learner", follows a UBJSON length marker. Not parsed: nlohmann's
 * UBJSON reader recurses on nesting, and the bytes are not JSON, so their nesting is unchecked.
 */
bool IsUbjsonModel(const std::string& text) {
  if (text.size() < 4 || text[0] != '{') return false;
  // '{', then the key's length: a type marker (i U I l L, or XGBoost's own) and its bytes.
  if (std::string_view("iUIlL").find(text[1]) == std::string_view::npos) return false;
  const auto at = text.find("learner");
  return at != std::string::npos && at <= 16;
}

/**
 * @brief Tree `t` of the model: the nodes the root reaches, in the file's order (so that node
 * ids are XGBoost's when the tree has no deleted node); `depth` set to its depth.
 */
Tree ReadTree(const Reader& r, const Json& json, std::size_t t, int output, int& depth) {
  const std::string where = "tree " + std::to_string(t);
  const Json& param = r.Member(json, "tree_param", where);
  const auto n = static_cast<std::size_t>(
      r.Count(r.Member(param, "num_nodes", where + ".tree_param"), where + ".tree_param.num_nodes"));
  if (n == 0) r.Fail(where + " has no node; " + kSaveAgain);
  if (const auto it = param.find("size_leaf_vector"); it != param.end()) {
    const std::int64_t k = r.Count(*it, where + ".tree_param.size_leaf_vector");
    if (k > 1)
      r.Fail(where + " has vector leaves (size_leaf_vector " + std::to_string(k) +
             "), which perfshap does not read: retrain with multi_strategy=\"one_output_per_tree\"");
  }
  const auto left = r.Numbers(json, "left_children", n, where);
  const auto right = r.Numbers(json, "right_children", n, where);
  const auto split = r.Numbers(json, "split_indices", n, where);
  const auto condition = r.Numbers(json, "split_conditions", n, where);
  const auto missing_left = r.Numbers(json, "default_left", n, where);
  const auto hessian = r.Numbers(json, "sum_hessian", n, where);
  std::vector<double> split_type;  // older models have no split_type: all numerical
  if (json.contains("split_type")) split_type = r.Numbers(json, "split_type", n, where);

  // Walk from the root with an explicit stack (a tree may be any number of levels deep): a leaf
  // has -1 for both children, a split two nodes of the tree that no other node links to (so no
  // node is reached twice and there is no cycle: the root is no node's child). Anything else
  // (a child -2, a node with one child) is refused: XGBoost itself crashes or reads past its
  // arrays there, and taking such a node for a leaf would predict with its split's threshold.
  // The nodes no path from the root reaches are left out, not refused: XGBoost's pruning (the
  // exact method with gamma) keeps its deleted nodes in the arrays, unlinked, and XGBoost never
  // reads them; what the root reaches is the whole tree XGBoost predicts with.
  std::vector<std::uint8_t> reached(n, 0);
  std::vector<int> node_depth(n, 0);
  std::vector<std::size_t> stack{0};
  reached[0] = 1;
  depth = 0;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    depth = std::max(depth, node_depth[i]);
    const std::string node = where + ", node " + std::to_string(i);
    if (left[i] == -1.0 && right[i] == -1.0) continue;
    if (left[i] < 0 || right[i] < 0)
      r.Fail(node + " has children " + Reader::Index(left[i]) + " and " + Reader::Index(right[i]) +
             ": a leaf has -1 for both, a split two nodes of the tree; the arrays are inconsistent; " + kSaveAgain);
    if (!split_type.empty() && split_type[i] != 0.0)
      r.Fail(node +
             " is a categorical split, which perfshap does not read: retrain with the feature one-hot "
             "encoded (or without enable_categorical)");
    for (const double c : {left[i], right[i]}) {
      if (!(c >= 1 && c < static_cast<double>(n)) || c != std::floor(c) || reached[static_cast<std::size_t>(c)])
        r.Fail(node + " has child " + Reader::Index(c) + ", which is not a new node among the tree's " +
               std::to_string(n) + " nodes: the arrays are inconsistent; " + kSaveAgain);
      reached[static_cast<std::size_t>(c)] = 1;
      node_depth[static_cast<std::size_t>(c)] = node_depth[i] + 1;
      stack.push_back(static_cast<std::size_t>(c));
    }
    if (!(split[i] >= 0 && split[i] <= std::numeric_limits<std::int32_t>::max()) || split[i] != std::floor(split[i]))
      r.Fail(node + " splits on feature " + Reader::Shown(Json(split[i])) + ", not a feature index; " + kSaveAgain);
  }
  // The nodes with categories (a model without split_type lists them here; XGBoost 1.4 and
  // older have neither key and no categorical splits).
  if (const auto nodes = json.find("categories_nodes"); nodes != json.end() && nodes->is_array()) {
    for (const Json& c : *nodes) {
      if (c.is_number_integer() && c.get<std::int64_t>() >= 0 && c.get<std::int64_t>() < static_cast<std::int64_t>(n) &&
          reached[static_cast<std::size_t>(c.get<std::int64_t>())])
        r.Fail(where + ", node " + Reader::Shown(c) +
               " is a categorical split, which perfshap does not read: "
               "retrain with the feature one-hot encoded (or without enable_categorical)");
    }
  }

  std::vector<std::int32_t> id(n, -1);  // new index of each reached node
  std::int32_t next = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (reached[i]) id[i] = next++;
  Tree tree;
  tree.output = output;
  tree.width = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!reached[i]) continue;
    const bool leaf = left[i] == -1.0;
    const double v = AsFloat(condition[i]);
    const double value = leaf ? v : 0.0;  // set below for internal nodes
    const std::int32_t node =
        tree.AddNode(leaf ? -1 : static_cast<std::int32_t>(split[i]), leaf ? 0.0 : v, missing_left[i] != 0.0,
                     AsFloat(hessian[i]), std::span<const double>(&value, 1));
    if (!leaf) {
      tree.left[static_cast<std::size_t>(node)] = id[static_cast<std::size_t>(left[i])];
      tree.right[static_cast<std::size_t>(node)] = id[static_cast<std::size_t>(right[i])];
    }
  }
  // An internal node's value: the cover-weighted mean of its children's (the expected leaf value
  // below it, as XGBoost's TreeSHAP computes it: divided by the node's own cover). Children have
  // larger file indices than their parent in XGBoost's trees, but the order is not relied on:
  // nodes are finished in the reverse of a preorder walk, children before parents.
  std::vector<std::int32_t> order;
  order.reserve(tree.n_nodes());
  std::vector<std::int32_t> walk{0};
  while (!walk.empty()) {
    const std::int32_t i = walk.back();
    walk.pop_back();
    order.push_back(i);
    if (tree.left[static_cast<std::size_t>(i)] >= 0) {
      walk.push_back(tree.left[static_cast<std::size_t>(i)]);
      walk.push_back(tree.right[static_cast<std::size_t>(i)]);
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<std::size_t>(*it);
    if (tree.left[i] < 0) continue;
    const auto a = static_cast<std::size_t>(tree.left[i]);
    const auto b = static_cast<std::size_t>(tree.right[i]);
    const double weighted = tree.value[a] * tree.cover[a] + tree.value[b] * tree.cover[b];
    tree.value[i] = tree.cover[i] > 0.0 ? weighted / tree.cover[i] : 0.5 * (tree.value[a] + tree.value[b]);
  }
  return tree;
}

/** @brief Where each boosting round's trees start: round k is trees [boundary[k], boundary[k + 1]). */
struct RoundTrees {
  std::vector<std::int64_t> boundary;
  std::int64_t rounds() const noexcept { return static_cast<std::int64_t>(boundary.size()) - 1; }
};

/**
 * @brief The rounds of a model of n_trees trees, per_round (num_class x num_parallel_tree) to a
 * round, or as XGBoost 2's iteration_indptr lists them. Trees past the last whole round (a file
 * XGBoost would not write) belong to no round: XGBoost counts n_trees / per_round rounds too.
 */
RoundTrees RoundBoundaries(const Reader& r, const Json& model, std::size_t n_trees, std::int64_t per_round) {
  RoundTrees rt;
  if (const auto it = model.find("iteration_indptr"); it != model.end() && it->is_array() && !it->empty()) {
    const std::string where = "learner.gradient_booster.model.iteration_indptr";
    for (std::size_t k = 0; k < it->size(); ++k) {
      const std::int64_t b = r.Count((*it)[k], where + "[" + std::to_string(k) + "]");
      if ((k == 0 && b != 0) || (k > 0 && b < rt.boundary.back()) || b > static_cast<std::int64_t>(n_trees))
        r.Fail(where + "[" + std::to_string(k) + "] is " + std::to_string(b) +
               ", which does not fit the model's " + std::to_string(n_trees) +
               " trees in round order: the file is inconsistent; " + kSaveAgain);
      rt.boundary.push_back(b);
    }
    return rt;
  }
  const std::int64_t rounds = static_cast<std::int64_t>(n_trees) / per_round;
  rt.boundary.reserve(static_cast<std::size_t>(rounds) + 1);
  for (std::int64_t k = 0; k <= rounds; ++k) rt.boundary.push_back(k * per_round);
  return rt;
}

/**
 * @brief The rounds to keep: options.iteration_range, else [0, best_iteration + 1) for an
 * early-stopped model (as XGBoost's scikit-learn predict and shap), else all.
 */
BoostingRounds ChooseRounds(const Reader& r, const Json& learner, const RoundTrees& rt, std::int64_t parallel_trees,
                            const XgboostReadOptions& options) {
  BoostingRounds out;
  out.total = rt.rounds();
  // XGBoost writes best_iteration as a string; XGBoost 1.x also best_ntree_limit, which is
  // (best_iteration + 1) x num_parallel_tree, and very old files only that.
  if (const auto a = learner.find("attributes"); a != learner.end() && a->is_object()) {
    const std::string where = "learner.attributes.";
    if (const auto it = a->find("best_iteration"); it != a->end()) {
      out.best_iteration = r.Count(*it, where + "best_iteration");
    } else if (const auto limit = a->find("best_ntree_limit"); limit != a->end()) {
      const std::int64_t trees = r.Count(*limit, where + "best_ntree_limit");
      if (trees > 0) out.best_iteration = (trees + parallel_trees - 1) / parallel_trees - 1;
    }
  }
  const std::string rounds = std::to_string(out.total) + (out.total == 1 ? " round" : " rounds");
  if (options.iteration_range) {
    const IterationRange ir = *options.iteration_range;
    out.begin = ir.begin;
    out.end = ir.end == 0 ? out.total : ir.end;
    out.explicit_range = true;
    if (ir.begin < 0 || ir.end < 0 || out.end > out.total || out.begin >= out.end)
      throw InvalidArgument(r.prefix() + "the iteration range [" + std::to_string(ir.begin) + ", " +
                                std::to_string(ir.end) + ") does not fit the model's " + rounds +
                                "; give 0 <= begin < end <= " + std::to_string(out.total) + " (end 0: to the last round)",
                            {"iteration_range"});
    return out;
  }
  out.begin = 0;
  out.end = out.total;
  if (out.best_iteration >= out.total) {
    // A slice of an early-stopped model (booster[0:50]) that kept its parent's best_iteration,
    // past the rounds it holds: the slice's trees are what the user chose, all of them.
    out.sliced_best_iteration = out.best_iteration;
    out.best_iteration = -1;
  } else if (out.best_iteration >= 0) {
    out.end = out.best_iteration + 1;
  }
  return out;
}

/**
 * @brief The margin's base of each output from learner_model_param.base_score: one number
 * (XGBoost < 3.1: "5E-1"), or since 3.1 a vector in a string, one entry per output
 * ("[-2.8E-2,3.4E-2,-6.1E-2]" for 3 classes; "[5.039E-1]" for one output; a single entry is
 * every output's). Each entry is on the output scale and moves to the margin by the objective's
 * link (XGBoost's ProbToMargin): the logit of a probability, the log of a positive mean, else as
 * it is (multi:softprob's entries are margins already).
 */
std::vector<double> BaseMargins(const Reader& r, const Json& value, const std::string& where, std::size_t n_outputs,
                                const Objective& objective, const std::string& objective_text) {
  std::vector<double> scores;
  if (value.is_string() && !value.get_ref<const std::string&>().empty() &&
      value.get_ref<const std::string&>().front() == '[') {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.size() < 2 || text.back() != ']')
      r.Fail(where + " is " + Reader::Shown(value) + ", not a number or a list of numbers; " + kSaveAgain);
    const std::string_view inner = std::string_view(text).substr(1, text.size() - 2);
    std::size_t begin = 0;
    while (begin <= inner.size()) {
      const std::size_t end = std::min(inner.find(',', begin), inner.size());
      double v = 0.0;
      if (!ParseNumberText(std::string(inner.substr(begin, end - begin)), v))
        r.Fail(where + " is " + Reader::Shown(value) + ", not a list of numbers; " + kSaveAgain);
      scores.push_back(v);
      begin = end + 1;
    }
  } else {
    scores.push_back(r.Number(value, where));
  }
  if (scores.size() == 1) scores.assign(n_outputs, scores.front());
  if (scores.size() != n_outputs)
    r.Fail(where + " holds " + std::to_string(scores.size()) + " values for a model of " + std::to_string(n_outputs) +
           " outputs: the file is inconsistent; " + kSaveAgain);
  std::vector<double> base(n_outputs);
  for (std::size_t o = 0; o < n_outputs; ++o) {
    // base_score is float32 in XGBoost: round it as XGBoost does before moving it to the margin.
    const double score = AsFloat(scores[o]);
    // Built by append: GCC 12 warns (-Wrestrict, a false positive) on "[" + std::to_string(o).
    std::string shown = where;
    if (n_outputs > 1) shown.append("[").append(std::to_string(o)).append("]");
    shown.append(" is ").append(Reader::Shown(Json(score))).append("; ").append(objective_text);
    if (objective.base == BaseLink::kLogit) {
      if (!(score > 0.0 && score < 1.0)) r.Fail(shown + " needs a probability in (0, 1): retrain with another base_score");
      base[o] = std::log(score / (1.0 - score));
    } else if (objective.base == BaseLink::kLog) {
      if (!(score > 0.0 && std::isfinite(score)))
        r.Fail(shown + " needs a positive base_score (its margin is the log): retrain with another base_score");
      base[o] = std::log(score);
    } else {
      if (!std::isfinite(score)) r.Fail(where + " is not finite; retrain with a finite base_score");
      base[o] = score;
    }
  }
  return base;
}

std::shared_ptr<const TreeEnsemble> Parse(const Reader& r, const std::string& text, const XgboostReadOptions& options) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) r.Fail(std::string("the file is empty; ") + kSaveAgain);
  // UBJSON first (no JSON starts that way), then the nesting of the JSON: a model nests about 7
  // levels, and deeper values would overflow the stack where a message formats them.
  if (IsUbjsonModel(text))
    r.Fail(
        "the file is XGBoost's binary UBJSON format, not JSON; save the model with "
        "Booster.save_model(\"model.json\") (the .json extension selects JSON)");
  detail::CheckJsonNesting(text, r.prefix(), kSaveAgain);
  const std::optional<std::string> quoted = QuoteNonFiniteWords(text);
  const std::string& json = quoted ? *quoted : text;
  Json doc;
  try {
    doc = Json::parse(json);
  } catch (const Json::parse_error& e) {
    // Input that ends where the parser still expected more: e.byte is past the last byte.
    if (e.byte > json.size())
      r.Fail("the JSON ends early (" + ParseErrorText(e) + "): the file seems truncated; " + kSaveAgain);
    r.Fail("not JSON (" + ParseErrorText(e) + "); save the model with Booster.save_model(\"model.json\")");
  } catch (const Json::out_of_range& e) {
    // A number beyond a double's range (1e999): the parser's only other error. XGBoost writes
    // floats, so no model it saved holds one.
    r.Fail("the number " + detail::OverflowingNumber(e) + " is beyond the range of a double; " + kSaveAgain);
  }
  if (doc.is_array())
    r.Fail(
        "a JSON array, not an XGBoost model: a tree dump (Booster.dump_model) lacks the base score and "
        "objective; save the model with Booster.save_model(\"model.json\")");
  if (!doc.is_object() || !doc.contains("learner"))
    r.Fail(
        "JSON but not an XGBoost model (no \"learner\" object at the top); save the model with "
        "Booster.save_model(\"model.json\")");
  const Json& learner = r.Member(doc, "learner", "the file");

  // The booster first: gblinear and dart models have no gbtree model to read.
  const Json& booster = r.Member(learner, "gradient_booster", "learner");
  const Json& booster_name = r.Member(booster, "name", "learner.gradient_booster");
  const std::string name = booster_name.is_string() ? booster_name.get<std::string>() : Reader::Shown(booster_name);
  if (name != "gbtree")
    r.Fail("the booster is " + detail::Quoted(name) +
           "; perfshap explains gbtree models only: retrain with "
           "booster=\"gbtree\"");

  const Json& objective_name = r.Member(r.Member(learner, "objective", "learner"), "name", "learner.objective");
  if (!objective_name.is_string()) r.Fail("learner.objective.name is not a string; " + std::string(kSaveAgain));
  const std::string objective_text = objective_name.get<std::string>();
  const Objective objective = ReadObjective(r, objective_text);

  const Json& param = r.Member(learner, "learner_model_param", "learner");
  const std::string pwhere = "learner.learner_model_param";
  const std::int64_t n_features = r.Count(r.Member(param, "num_feature", pwhere), pwhere + ".num_feature");
  const std::int64_t num_class = param.contains("num_class") ? r.Count(param["num_class"], pwhere + ".num_class") : 0;
  if (param.contains("num_target")) {
    const std::int64_t targets = r.Count(param["num_target"], pwhere + ".num_target");
    if (targets > 1)
      r.Fail("the model has " + std::to_string(targets) +
             " targets (num_target); perfshap reads models of one "
             "target: train one model per target");
  }
  std::size_t n_outputs = 1;
  if (objective.multiclass) {
    if (num_class < 2)
      r.Fail("the objective " + objective_text + " needs num_class >= 2, the model has " + std::to_string(num_class) +
             "; " + kSaveAgain);
    n_outputs = static_cast<std::size_t>(num_class);
  } else if (num_class > 1) {
    r.Fail("the objective " + objective_text + " has one output but num_class is " + std::to_string(num_class) + "; " +
           kSaveAgain);
  }
  TreeEnsembleInfo info;
  info.n_features = static_cast<std::size_t>(n_features);
  info.n_outputs = n_outputs;
  info.base_margin = BaseMargins(r, r.Member(param, "base_score", pwhere), pwhere + ".base_score", n_outputs,
                                 objective, objective_text);
  info.tree_scale = 1.0;
  info.transform = objective.transform;
  info.rule = SplitRule::kLessFloat;
  info.classifier = objective.classifier;
  if (const auto it = learner.find("feature_names"); it != learner.end() && it->is_array() && !it->empty()) {
    if (it->size() != info.n_features)
      r.Fail("learner.feature_names has " + std::to_string(it->size()) + " names for " +
             std::to_string(info.n_features) + " features (num_feature); " + kSaveAgain);
    for (const Json& f : *it) {
      if (!f.is_string()) r.Fail("learner.feature_names holds " + Reader::Shown(f) + ", not a name; " + kSaveAgain);
      info.feature_names.push_back(f.get<std::string>());
    }
    // Checked here as TreeEnsemble checks them, worded for the file: data columns are matched
    // to the features by name.
    try {
      detail::CheckFeatureNames(info.feature_names, "learner.feature_names");
    } catch (const InvalidArgument& e) {
      r.Fail(std::string(e.what()) + " (retrain on data with distinct column names)");
    }
  }

  const Json& model = r.Member(booster, "model", "learner.gradient_booster");
  const std::string mwhere = "learner.gradient_booster.model";
  const Json& trees_json = r.Member(model, "trees", mwhere);
  const Json& tree_info = r.Member(model, "tree_info", mwhere);
  if (!trees_json.is_array() || !tree_info.is_array())
    r.Fail(mwhere + ".trees and .tree_info must be arrays; " + kSaveAgain);
  if (tree_info.size() != trees_json.size())
    r.Fail(mwhere + ".tree_info has " + std::to_string(tree_info.size()) + " entries for " +
           std::to_string(trees_json.size()) + " trees: the arrays are inconsistent; " + kSaveAgain);
  std::int64_t per_round = static_cast<std::int64_t>(n_outputs);
  if (const auto gp = model.find("gbtree_model_param"); gp != model.end() && gp->is_object()) {
    const std::string gwhere = mwhere + ".gbtree_model_param";
    if (gp->contains("num_trees") &&
        r.Count((*gp)["num_trees"], gwhere + ".num_trees") != static_cast<std::int64_t>(trees_json.size()))
      r.Fail(gwhere + ".num_trees is " + Reader::Shown((*gp)["num_trees"]) + " but the model holds " +
             std::to_string(trees_json.size()) + " trees: the file is inconsistent; " + kSaveAgain);
    if (gp->contains("size_leaf_vector")) {
      const std::int64_t k = r.Count((*gp)["size_leaf_vector"], gwhere + ".size_leaf_vector");
      if (k > 1)
        r.Fail("the model has vector leaves (size_leaf_vector " + std::to_string(k) +
               "), which perfshap does not read: retrain with multi_strategy=\"one_output_per_tree\"");
    }
    // num_parallel_tree > 1 (boosted random forests): the trees of a round simply add up.
    if (gp->contains("num_parallel_tree"))
      per_round *= std::max<std::int64_t>(1, r.Count((*gp)["num_parallel_tree"], gwhere + ".num_parallel_tree"));
  }

  std::vector<Tree> trees;
  trees.reserve(trees_json.size());
  std::vector<int> depths;
  depths.reserve(trees_json.size());
  for (std::size_t t = 0; t < trees_json.size(); ++t) {
    const std::int64_t group = r.Count(tree_info[t], mwhere + ".tree_info[" + std::to_string(t) + "]");
    if (group >= static_cast<std::int64_t>(n_outputs))
      r.Fail("tree " + std::to_string(t) + " adds to output group " + std::to_string(group) + " of a model with " +
             std::to_string(n_outputs) + " outputs (tree_info): the file is inconsistent; " + kSaveAgain);
    int tree_depth = 0;
    trees.push_back(ReadTree(r, trees_json[t], t, static_cast<int>(group), tree_depth));
    depths.push_back(tree_depth);
  }

  // The rounds to keep (every tree of the file is read and checked above, kept or not).
  const RoundTrees rt = RoundBoundaries(r, model, trees.size(), per_round);
  info.rounds = ChooseRounds(r, learner, rt, per_round / static_cast<std::int64_t>(n_outputs), options);
  const BoostingRounds& rounds = info.rounds;
  const bool all = rounds.begin == 0 && rounds.end == rounds.total;
  if (!all) {
    const auto first = static_cast<std::size_t>(rt.boundary[static_cast<std::size_t>(rounds.begin)]);
    const auto last = static_cast<std::size_t>(rt.boundary[static_cast<std::size_t>(rounds.end)]);
    trees.erase(trees.begin() + static_cast<std::ptrdiff_t>(last), trees.end());
    trees.erase(trees.begin(), trees.begin() + static_cast<std::ptrdiff_t>(first));
    depths.erase(depths.begin() + static_cast<std::ptrdiff_t>(last), depths.end());
    depths.erase(depths.begin(), depths.begin() + static_cast<std::ptrdiff_t>(first));
    info.rounds.first_tree = static_cast<std::int64_t>(first);
  }
  const int depth = depths.empty() ? 0 : *std::max_element(depths.begin(), depths.end());

  info.description = "XGBoost " + objective_text + ", ";
  if (objective.multiclass) info.description += std::to_string(n_outputs) + " classes, ";
  info.description += std::to_string(trees.size()) + (trees.size() == 1 ? " tree" : " trees");
  info.description += ", depth <= " + std::to_string(depth);
  // XGBoost's scikit-learn predict and shap stop at best_iteration after early stopping (and
  // Booster.predict with its iteration_range): the description says which rounds are used
  // whenever that is not simply all of them.
  const std::string best =
      rounds.best_iteration >= 0 ? "best_iteration " + std::to_string(rounds.best_iteration) : std::string();
  if (!all) {
    info.description += ", rounds [" + std::to_string(rounds.begin) + ", " + std::to_string(rounds.end) + ") of " +
                        std::to_string(rounds.total) + (best.empty() ? "" : " (" + best + ")");
  } else if (rounds.best_iteration >= 0 && rounds.best_iteration + 1 < rounds.total) {
    info.description += ", all " + std::to_string(rounds.total) + " rounds (" + best + " not applied)";
  } else if (rounds.sliced_best_iteration >= 0) {
    info.description += ", all " + std::to_string(rounds.total) + " rounds (a slice: the best_iteration " +
                        std::to_string(rounds.sliced_best_iteration) + " it keeps is its parent's)";
  }

  try {
    return std::make_shared<const TreeEnsemble>(std::move(trees), std::move(info));
  } catch (const InvalidArgument& e) {
    r.Fail(std::string(e.what()) + "; " + kSaveAgain);
  }
}

}  // namespace

std::shared_ptr<const TreeEnsemble> ParseXgboostModel(const std::string& json, const std::string& source,
                                                       const XgboostReadOptions& options) {
  const Reader r(source);
  try {
    return Parse(r, json, options);
  } catch (const Json::exception& e) {
    // A value of an unexpected type somewhere the checks above do not look.
    std::string what = e.what();
    for (char& c : what)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    r.Fail("unexpected content (" + what + "); " + kSaveAgain);
  }
}

std::shared_ptr<const TreeEnsemble> ReadXgboostModel(const std::string& path, const XgboostReadOptions& options) {
  return ParseXgboostModel(ReadXgboostModelText(path), path, options);
}

std::string ReadXgboostModelText(const std::string& path) {
  namespace fs = std::filesystem;
  const Reader r(path);
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    r.Fail("cannot access the file (" + ec.message() + "); check the path and its permissions");
  if (!fs::exists(st)) r.Fail("no such file; check the path of the model file");
  if (fs::is_directory(st)) r.Fail("is a directory, not a model file; pass the path of the model's JSON file");
  // Read with a text file's checks and a size limit; UBJSON (binary) is named by its first bytes.
  return detail::ReadJsonFileText(path, r.prefix(), {}, [&r](std::string_view first) {
    if (IsUbjsonModel(std::string(first.substr(0, 64))))
      r.Fail(
          "the file is XGBoost's binary UBJSON format, not JSON; save the model with "
          "Booster.save_model(\"model.json\") (the .json extension selects JSON)");
  });
}

}  // namespace perfshap
