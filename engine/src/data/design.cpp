// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// DesignEncoder: from the columns ReadCsv gives (numbers, text as first-appearance codes) to
// the columns a learner trains on, and the players over them. Text levels are matched by
// their text, never by their codes, so two files read separately encode alike.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "data/message_text.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::EscapeControls;
using detail::Quoted;
using detail::QuotedList;

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

/// "train.csv" for messages; "the data" when a data set has no source.
std::string SourceName(const Dataset& data) {
  return data.source().empty() ? std::string("the data") : EscapeControls(data.source());
}

/// "groups.json: group 'g'" (or "group 'g'" for a group built in code).
std::string GroupRef(const FeatureGroup& group) {
  return (group.source.empty() ? std::string() : EscapeControls(group.source) + ": ") + "group " +
         Quoted(group.name);
}

/// The code held by row `row` of a text column: an integer in [0, n_levels), else a DataError.
std::size_t CodeAt(const Dataset& data, std::size_t j, std::size_t row, std::size_t n_levels) {
  const double v = data.column(j)[row];
  if (!(v >= 0.0 && v < static_cast<double>(n_levels) && v == std::floor(v))) {
    throw DataError(SourceName(data) + ": column " + Quoted(data.feature_names()[j]) + ", data row " +
                    std::to_string(row + 1) + ": " + std::to_string(v) +
                    " is not a code of the column's encoding (0.." + std::to_string(n_levels - 1) +
                    "); a text column holds the codes ReadCsv gives it");
  }
  return static_cast<std::size_t>(v);
}

/// The levels that rows of text column j hold, sorted in byte order (as numpy's np.unique
/// sorts str: UTF-8 byte order is code point order).
std::vector<std::string> SortedLevelsPresent(const Dataset& data, std::size_t j) {
  const std::vector<std::string>& levels = data.encoding(j)->levels;
  std::vector<char> present(levels.size(), 0);
  for (std::size_t i = 0; i < data.n_rows(); ++i) present[CodeAt(data, j, i, levels.size())] = 1;
  std::vector<std::string> out;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    if (present[k] != 0) out.push_back(levels[k]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The source feature columns to use, in the order given (all, in file order, when none are).
std::vector<std::size_t> FeatureOrder(const Dataset& source, std::span<const std::size_t> features) {
  const std::vector<std::string>& all_names = source.feature_names();
  std::vector<std::size_t> order;
  if (features.empty()) {
    for (std::size_t j = 0; j < source.n_features(); ++j) order.push_back(j);
  } else {
    std::vector<char> seen(source.n_features(), 0);
    for (std::size_t j : features) {
      PERFSHAP_CHECK(j < source.n_features(), "DesignEncoder: feature index " + std::to_string(j) +
                                                  " is out of range (" + SourceName(source) + " has " +
                                                  std::to_string(source.n_features()) + " feature columns)");
      PERFSHAP_CHECK(seen[j] == 0, "DesignEncoder: feature " + Quoted(all_names[j]) +
                                       " is listed twice; list each feature once");
      seen[j] = 1;
      order.push_back(j);
    }
  }
  return order;
}

/// Throws for group `g` (referred to as `where`) with an empty name, a name taken by an earlier
/// group (`group_names` holds those, and takes this one), or no columns.
void CheckGroupEntry(const FeatureGroup& group, std::size_t g, const std::string& where,
                     std::unordered_set<std::string>& group_names) {
  if (group.name.empty()) {
    throw DataError((group.source.empty() ? std::string() : EscapeControls(group.source) + ": ") + "group " +
                    std::to_string(g + 1) + " has an empty name; give every group a name (the player takes it)");
  }
  if (!group_names.insert(group.name).second) {
    throw DataError(where + " is defined twice; give each group one entry (merge the two lists or rename one)");
  }
  if (group.columns.empty()) {
    throw DataError(where +
                    " is empty; list its columns, or remove the group (columns in no group stay "
                    "players of their own)");
  }
}

/// Throws for a group (referred to as `where`) naming `column`, which is not among the features
/// used: a feature left out, the label, or a name the source lacks (with close names).
[[noreturn]] void ThrowGroupColumnNotUsed(const Dataset& source, const std::vector<std::size_t>& order,
                                          const std::string& where, const std::string& column) {
  const std::vector<std::string>& all_names = source.feature_names();
  if (std::find(all_names.begin(), all_names.end(), column) != all_names.end()) {
    std::vector<std::string> used;
    for (std::size_t j : order) used.push_back(all_names[j]);
    throw DataError(where + " names column " + Quoted(column) + ", which is not among the features used (" +
                        QuotedList(used) + "); add it to the features or remove it from the group",
                    {"features"});
  }
  if (!source.label_name().empty() && column == source.label_name()) {
    throw DataError(where + " names column " + Quoted(column) + ", the label of " + SourceName(source) +
                    "; a group holds feature columns only: remove it from the group");
  }
  const std::vector<std::string> close = detail::CloseNames(column, all_names);
  throw DataError(where + " names column " + Quoted(column) + ", which " + SourceName(source) + " does not have; " +
                  (close.empty() ? "its feature columns are " + QuotedList(all_names)
                                 : "did you mean " + QuotedList(close) + "?") +
                  " (names are matched exactly, case included)");
}

/// Which group each feature (by its position in `order`) is in, kNone for a player of its own;
/// checks the groups against the features and one another.
std::vector<std::size_t> GroupOfFeatures(const Dataset& source, const std::vector<std::size_t>& order,
                                         const std::unordered_map<std::string, std::size_t>& position,
                                         std::span<const FeatureGroup> groups) {
  std::vector<std::size_t> group_of(order.size(), kNone);
  std::unordered_set<std::string> group_names;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const FeatureGroup& group = groups[g];
    const std::string where = GroupRef(group);
    CheckGroupEntry(group, g, where, group_names);
    for (const std::string& column : group.columns) {
      const auto at = position.find(column);
      if (at == position.end()) ThrowGroupColumnNotUsed(source, order, where, column);
      const std::size_t p = at->second;
      if (group_of[p] == g) {
        throw DataError(where + " lists column " + Quoted(column) + " twice; list each column once");
      }
      if (group_of[p] != kNone) {
        throw DataError(GroupRef(group) + ": column " + Quoted(column) + " is in group " +
                        Quoted(groups[group_of[p]].name) + " and in group " + Quoted(group.name) +
                        "; a column may be in one group only: remove it from one of them");
      }
      group_of[p] = g;
    }
  }
  // Player names are unique: a group may not take the name of a feature that stays a player.
  for (const FeatureGroup& group : groups) {
    const auto at = position.find(group.name);
    if (at != position.end() && group_of[at->second] == kNone) {
      throw DataError(GroupRef(group) + " has the name of the feature " + Quoted(group.name) +
                      ", which is in no group and stays a player of its own; rename the group");
    }
  }
  return group_of;
}

/// The players: each one's name and its features' positions in `order`.
struct PlayerMembers {
  std::vector<std::vector<std::size_t>> members;  // positions in order, per player
  std::vector<std::string> names;
};

/// Players in the order of their first feature; each player's source columns in features order.
PlayerMembers MembersOfPlayers(const std::vector<std::string>& all_names, const std::vector<std::size_t>& order,
                               const std::vector<std::size_t>& group_of, std::span<const FeatureGroup> groups) {
  PlayerMembers players;
  std::vector<std::size_t> player_of_group(groups.size(), kNone);
  for (std::size_t p = 0; p < order.size(); ++p) {
    const std::size_t g = group_of[p];
    if (g == kNone) {
      players.members.push_back({p});
      players.names.push_back(all_names[order[p]]);
    } else if (player_of_group[g] == kNone) {
      player_of_group[g] = players.members.size();
      players.members.push_back({p});
      players.names.push_back(groups[g].name);
    } else {
      players.members[player_of_group[g]].push_back(p);
    }
  }
  return players;
}

/// An indicator 'color=red' next to a numeric column named 'color=red' would be ambiguous:
/// throws unless the design's column names are unique.
void CheckDesignColumnNames(const Dataset& source, const std::vector<std::string>& column_names) {
  std::unordered_set<std::string> taken;
  for (const std::string& name : column_names) {
    if (!taken.insert(name).second) {
      throw DataError(SourceName(source) + ": the indicator column " + Quoted(name) +
                      " of a text column has the name of another column of the design; rename that column");
    }
  }
}

}  // namespace

DesignEncoder::DesignEncoder(const Dataset& source, std::span<const std::size_t> features,
                             std::span<const FeatureGroup> groups, TextColumns policy)
    : policy_(policy), fitted_on_(source.source()) {
  const std::vector<std::string>& all_names = source.feature_names();
  // The features, in the order given.
  const std::vector<std::size_t> order = FeatureOrder(source, features);
  std::unordered_map<std::string, std::size_t> position;  // source name -> index in order
  for (std::size_t p = 0; p < order.size(); ++p) position.emplace(all_names[order[p]], p);

  // Which group each feature is in (kNone: a player of its own), then the players.
  const std::vector<std::size_t> group_of = GroupOfFeatures(source, order, position, groups);
  const PlayerMembers players = MembersOfPlayers(all_names, order, group_of, groups);

  // The design's columns, player by player.
  for (std::size_t k = 0; k < players.members.size(); ++k) {
    Player player;
    player.name = players.names[k];
    for (std::size_t p : players.members[k]) {
      const std::size_t j = order[p];
      SourceColumn column;
      column.name = all_names[j];
      player.source_columns.push_back(column.name);
      if (!source.encoding(j)) {
        player.columns.push_back(column_names_.size());
        column_names_.push_back(column.name);
        sources_.push_back(std::move(column));
        continue;
      }
      column.is_text = true;
      column.levels = SortedLevelsPresent(source, j);
      if (column.levels.size() < 2) {
        throw DataError(SourceName(source) + ": column " + Quoted(column.name) + " holds one level only (" +
                            QuotedList(column.levels) +
                            "), so it is constant and cannot change any model; leave it out of the features",
                        {"features"});
      }
      if (policy_ == TextColumns::kOneHot) {
        // OneHotEncoder(drop="first"): the first sorted level is the reference, no column.
        for (std::size_t level = 1; level < column.levels.size(); ++level) {
          player.columns.push_back(column_names_.size());
          column_names_.push_back(column.name + "=" + column.levels[level]);
        }
      } else {
        player.columns.push_back(column_names_.size());
        column_names_.push_back(column.name);
      }
      sources_.push_back(std::move(column));
    }
    players_.push_back(std::move(player));
  }
  CheckDesignColumnNames(source, column_names_);
}

Design DesignEncoder::Apply(const Dataset& data) const {
  const std::string where = SourceName(data) + ": ";
  const std::string fitted =
      fitted_on_.empty() ? std::string("the data fitted on") : EscapeControls(fitted_on_);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t j = 0; j < data.n_features(); ++j) index.emplace(data.feature_names()[j], j);
  const std::size_t n = data.n_rows();

  std::vector<ColumnValues> columns;
  columns.reserve(column_names_.size());
  for (const SourceColumn& source : sources_) {
    const auto at = index.find(source.name);
    if (at == index.end()) {
      throw DataError(where + "no column " + Quoted(source.name) + ", which the design was fitted with (on " +
                      fitted + "); the feature columns are " + QuotedList(data.feature_names()) +
                      "; use data with the same columns");
    }
    const std::size_t j = at->second;
    const std::string column_ref = "column " + Quoted(source.name);
    if (!source.is_text) {
      if (data.encoding(j)) {
        throw DataError(
            where + column_ref + " is text (first level " +
            Quoted(data.encoding(j)->levels.empty() ? std::string() : data.encoding(j)->levels.front()) +
            ") but was numeric in " + fitted + "; fix the cells that are not numbers");
      }
      columns.push_back(data.column_values(j));  // shared, not copied
      continue;
    }
    if (!data.encoding(j)) {
      throw DataError(where + column_ref + " is numeric but was text in " + fitted + " (levels " +
                      QuotedList(source.levels) + "); use data whose column holds the same levels");
    }
    // Each code of `data` to the index of its level among the fitted (sorted) levels.
    const std::vector<std::string>& levels = data.encoding(j)->levels;
    std::vector<std::size_t> fitted_index(levels.size(), kNone);
    for (std::size_t c = 0; c < levels.size(); ++c) {
      const auto it = std::lower_bound(source.levels.begin(), source.levels.end(), levels[c]);
      if (it != source.levels.end() && *it == levels[c]) {
        fitted_index[c] = static_cast<std::size_t>(it - source.levels.begin());
      }
    }
    std::vector<std::size_t> level_of_row(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t code = CodeAt(data, j, i, levels.size());
      if (fitted_index[code] == kNone) {
        // As scikit-learn's OneHotEncoder(handle_unknown='error').
        throw DataError(where + column_ref + ", data row " + std::to_string(i + 1) + ": level " +
                        Quoted(levels[code]) + " was not seen when the design was fitted (on " + fitted +
                        ", levels " + QuotedList(source.levels) +
                        "); remove the rows with this level, or fit on data that holds it");
      }
      level_of_row[i] = fitted_index[code];
    }
    if (policy_ == TextColumns::kOneHot) {
      for (std::size_t level = 1; level < source.levels.size(); ++level) {
        std::vector<double> indicator(n);
        for (std::size_t i = 0; i < n; ++i) indicator[i] = level_of_row[i] == level ? 1.0 : 0.0;
        columns.emplace_back(std::move(indicator));
      }
    } else {
      std::vector<double> codes(n);
      for (std::size_t i = 0; i < n; ++i) codes[i] = static_cast<double>(level_of_row[i]);
      columns.emplace_back(std::move(codes));
    }
  }

  Design design;
  design.data = Dataset(column_names_, std::move(columns), data.label_values(), data.label_name());
  if (policy_ == TextColumns::kCodes) {
    std::size_t c = 0;
    for (const SourceColumn& source : sources_) {
      if (source.is_text) design.data.set_encoding(c, CategoricalEncoding{source.levels});
      ++c;  // under kCodes every source column is one design column
    }
  }
  design.data.set_source(data.source());
  design.data.set_dropped_rows(data.dropped_rows());
  design.players = players_;
  return design;
}

}}  // namespace perfshap
