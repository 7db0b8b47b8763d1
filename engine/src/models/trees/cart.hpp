// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The CART builder behind FitTree, FitForest and the "tree" and "forest" learners
// (perfshap/blocks/tree_learners.hpp describes the algorithm), on a view of the training data that
// both the public functions (which gather it from a Dataset) and the learners' coalition
// fitters (which point into a split's columns) can give it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

enum class CartCriterion : std::uint8_t { kGini, kEntropy, kSquaredError };

/** @brief TreeOptions::max_features, parsed. */
struct MaxFeatures {
  enum class Kind : std::uint8_t { kAll, kSqrt, kLog2, kCount, kFraction };
  Kind kind = Kind::kAll;
  std::size_t count = 0;
  double fraction = 1.0;
  /** @brief Candidates per node for a tree on n_features columns (>= 1 when n_features >= 1). */
  std::size_t Resolve(std::size_t n_features) const noexcept;
  /** @brief How the options spell it ("all", "sqrt", "3", "0.5"). */
  std::string Text() const;
};

/** @brief The checked options of one tree. */
struct CartSettings {
  CartCriterion criterion = CartCriterion::kGini;
  bool regression = false;
  int max_depth = 0;
  int min_samples_split = 2;
  int min_samples_leaf = 1;
  MaxFeatures max_features;
};

/**
 * @brief Checks TreeOptions and resolves its defaults (max_features: "sqrt" for a
 * classification forest, all otherwise).
 * @param who how messages name the options' owner ("tree", "forest").
 * @throws InvalidArgument (one line, options() = the option's name) for a bad option.
 */
CartSettings CheckTreeOptions(const TreeOptions& options, bool forest, const std::string& who);

/** @brief The criterion's name as TreeOptions spells it. */
const char* CriterionName(CartCriterion criterion) noexcept;

/** @brief Values per node of a tree: the class fractions for n_classes > 2, else one. */
inline int CartWidth(int n_classes) noexcept { return n_classes > 2 ? n_classes : 1; }

/**
 * @brief What a tree trains on: n_rows local rows 0..n_rows-1, feature j of row i at
 * columns[j][i], and class indices (classification, 0..n_classes-1 in ascending label order)
 * or targets (regression, n_classes = 0).
 */
struct CartData {
  std::size_t n_rows = 0;
  std::span<const double* const> columns;
  std::span<const std::int32_t> classes;
  std::span<const double> targets;
  int n_classes = 0;
};

/**
 * @brief Grows CART trees; holds the scratch of one tree at a time (reused: after the first
 * tree of a shape, growing allocates only what the tree's arrays grow by).
 */
class CartBuilder {
 public:
  /**
   * @brief Grows one tree into `tree` (its arrays cleared first, their memory kept).
   * @param weights one weight per row (bootstrap counts; a row of weight 0 is left out), or
   *   empty for weight 1 each.
   * @param rng the stream of the feature draws.
   */
  void Grow(const CartData& data, const CartSettings& settings, std::span<const double> weights,
            RandomStream& rng, Tree& tree);

 private:
  struct Record {
    std::uint32_t start;
    std::uint32_t end;
    std::int32_t depth;
    std::int32_t parent;
    std::uint32_t n_known_constants;
    bool is_left;
  };
  struct Keyed {
    double value;
    std::uint32_t row;
  };
  struct Best {
    std::int32_t feature = -1;
    std::uint32_t pos = 0;
    double threshold = 0.0;
    double weight_left = 0.0;
  };

  /** Node statistics of samples_[start, end): weight, class sums or target sum; impurity. */
  double NodeStatistics(std::uint32_t start, std::uint32_t end);
  /** The best split of samples_[start, end) (feature -1 when none); appends the features found
   *  constant to constants_ after the node's n_known ones and returns their count in n_found. */
  Best FindSplit(std::uint32_t start, std::uint32_t end, std::uint32_t n_known, std::uint32_t& n_found);
  /** Proxy of the classification split with left sums left_ of weight wl. */
  double ClassProxy(double wl, double wr) const noexcept;

  const CartData* data_ = nullptr;
  const CartSettings* settings_ = nullptr;
  RandomStream* rng_ = nullptr;
  const double* weight_ = nullptr;
  std::size_t max_features_ = 0;
  std::vector<double> ones_;
  std::vector<std::uint32_t> samples_;
  std::vector<std::uint32_t> right_;
  std::vector<Keyed> keyed_;
  std::vector<Record> stack_;
  std::vector<std::int32_t> constants_;
  std::vector<std::int32_t> pool_;
  std::vector<std::uint8_t> known_;
  std::vector<double> total_;
  std::vector<double> left_;
  std::vector<double> values_;
  double node_weight_ = 0.0;
  double node_sum_ = 0.0;
};

/**
 * @brief Trains the trees of a forest through the schedule, in blocks of trees; tree t grows
 * from RandomStream(seed, t), its bootstrap drawn first, so the forest depends on nothing but
 * its inputs. Keeps each block's scratch for the next forest.
 */
class ForestTrainer {
 public:
  void Train(const CartData& data, const CartSettings& settings, int n_trees, bool bootstrap,
             std::uint64_t seed, const ExecutionOptions& execution, std::vector<Tree>& trees);

 private:
  struct Block {
    CartBuilder builder;
    std::vector<double> weights;
  };
  std::vector<Block> blocks_;
};

/** @brief A Dataset's rows and columns copied for CART, with the labels as classes or targets. */
struct CartTable {
  std::vector<double> x;  // column-major, n_rows per column
  std::vector<const double*> columns;
  std::vector<std::int32_t> classes;
  std::vector<double> targets;
  /** The classes' label values, ascending (classification). */
  std::vector<double> class_values;
  std::size_t n_rows = 0;
  CartData View() const;
};

/**
 * @brief Gathers `rows` x `columns` of `data` and its labels.
 * @throws InvalidArgument for no row, no column or an index out of range; DataError for a data
 *   set without label, a missing value in a used cell or label.
 */
CartTable GatherTable(const Dataset& data, std::span<const std::size_t> rows,
                      std::span<const std::size_t> columns, bool regression, const std::string& who);

/** @brief The TreeEnsembleInfo of a tree model over `columns` of `data`. */
TreeEnsembleInfo CartInfo(const Dataset& data, std::span<const std::size_t> columns, const CartTable& table,
                          const CartSettings& settings, std::size_t n_trees);

/** @brief A label value as text: the shortest form that reads back ("1", "2.5"). */
std::string LabelText(double v);

}}}  // namespace perfshap::detail
