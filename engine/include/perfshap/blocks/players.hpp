// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Players as feature groups: the groups file, and the design (the encoded columns a learner
// trains on) with its players. A player is a set of design columns: one numeric column, the
// one-hot indicators of a text column, or every column of a named group.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief A player of a game: a named set of columns of the design (Design::data, the encoded
 * data set a learner sees).
 */
struct Player {
  /** The source column's name, or the group's name. */
  std::string name;
  /** Indices into Design::data's columns, increasing and contiguous (DesignEncoder lays each
   *  player's columns side by side). */
  std::vector<std::size_t> columns;
  /** The source columns (as ReadCsv named them) the player stands for, in the order of the
   *  encoder's `features`: one name, or a group's columns. */
  std::vector<std::string> source_columns;
};

/** @brief A named group of source columns, as a groups file lists them. */
struct FeatureGroup {
  /** The group's name, which the player takes; non-empty. */
  std::string name;
  /** Source column names, non-empty, each once. */
  std::vector<std::string> columns;
  /** Where the group was read from (the groups file), for messages; empty when built in code. */
  std::string source;
};

/**
 * @brief Reads a groups file: a JSON object `{"group name": ["col", ...], ...}`, the groups in
 * file order. Columns are matched against a data set later, by DesignEncoder; `{}` is no group.
 * @param path the JSON file; messages name it as given.
 * @return the groups, in file order, each with source = path.
 * @throws DataError, one line naming the file, for the cases ParseFeatureGroups lists, and for
 *   a missing file, a directory or an unreadable file.
 */
PERFSHAP_EXPORT std::vector<FeatureGroup> ReadFeatureGroups(const std::string& path);

/**
 * @brief Parses the text of a groups file (see ReadFeatureGroups).
 * @param json_text the JSON text.
 * @param source_name how messages name the text (a file path), and each group's `source`.
 * @return the groups, in the order of the text.
 * @throws DataError, one line starting with source_name, for: invalid JSON (with the line and
 *   column the parser reports), arrays and objects nested more than 64 levels deep, a number
 *   beyond a double's range, a top level that is not an object, a group defined twice, an
 *   empty group name, a value that is not an array of strings, an empty group, an empty
 *   column name, a column listed twice in one group, a column in two groups (naming both).
 */
PERFSHAP_EXPORT std::vector<FeatureGroup> ParseFeatureGroups(const std::string& json_text,
                                                             const std::string& source_name);

/** @brief How text (categorical) columns reach a learner. */
enum class TextColumns {
  /** Indicator columns as scikit-learn's `OneHotEncoder(drop="first")`: the levels sorted in
   *  byte order, the first dropped, one 0/1 column named `column=level` for each other level. */
  kOneHot,
  /** One numeric column of codes 0..L-1, the levels in sorted (byte) order, so the codes do
   *  not depend on the order of first appearance in a file. For tree learners. */
  kCodes,
};

/** @brief The columns a learner trains on, and the players over them. */
struct Design {
  /**
   * The encoded data, n_rows() as the data encoded. Columns: the players' columns in player
   * order, so each player's columns are contiguous; numeric columns copied as they are (NaN
   * kept), a text column as its indicators (kOneHot, names `column=level`, no encoding) or
   * as its sorted codes (kCodes, the source name, encoding() = the sorted levels). The label,
   * label name, source() and dropped_rows() are those of the data encoded.
   */
  Dataset data;
  /** The players, over data's columns; every column of data belongs to exactly one. */
  std::vector<Player> players;
};

/**
 * @brief Encodes data sets into a Design: fitted on one data set (the levels of its text
 * columns), applied to it and to other data sets with the same source columns, such as a
 * training file and a test file read separately, whose first-appearance codes differ.
 *
 * Players: each group is one player named after the group, holding all design columns of its
 * source columns (a text column contributes all its indicators); every other feature is a
 * player of its own named after the column (a text column's indicators form one player).
 * Players are ordered by the position of their first source column in `features`, so a
 * group sits where its first column would.
 */
class PERFSHAP_EXPORT DesignEncoder {
 public:
  /**
   * @brief Fits the encoder: which columns, which levels, which players.
   * @param source the data as read by ReadCsv (text columns carry their CategoricalEncoding;
   *   numeric columns none). The levels of a text column are those its rows hold (all the
   *   encoding's levels for a file read whole; maybe fewer after SelectRows).
   * @param features source feature columns to use (indices into source's columns), in this
   *   order, each once; empty = all, in file order.
   * @param groups groups of source column names. Every named column must be a column of
   *   `source` and among `features`; group names must be unique and must not be the name of a
   *   feature that is in no group. Columns named in no group stay single players.
   * @param policy how text columns are encoded (TextColumns).
   * @throws InvalidArgument for a feature index out of range or listed twice.
   * @throws DataError (one line) for: a group column `source` does not have (naming the group
   *   and the column, with close names or the available ones), a group column not among
   *   `features`, a column in two groups, an empty group or group name, two groups of one
   *   name, a group named like an ungrouped feature, a text column with one level only (it is
   *   constant), a code that is not one of its encoding's, an indicator name `column=level`
   *   that is also the name of a design column.
   */
  DesignEncoder(const Dataset& source, std::span<const std::size_t> features,
                std::span<const FeatureGroup> groups, TextColumns policy);

  /**
   * @brief Encodes `data` with what was fitted. Columns are matched by name; other columns of
   * `data` are ignored. Levels are matched by their text, so the codes of `data` may differ
   * from those of the data fitted on.
   * @param data a data set with (at least) the fitted source columns, as ReadCsv gives it.
   * @return the design: data.n_rows() rows, columns as Design::data describes, players(); its
   *   numeric columns and label are `data`'s, shared (ColumnValues), not copied.
   * @throws DataError (one line, naming data.source(), the column, the 1-based data row and the
   *   level) for: a fitted column `data` lacks, a text column that is numeric in `data` or the
   *   other way round, a level not seen when fitting (as scikit-learn's
   *   handle_unknown='error'), a code that is not one of its encoding's.
   */
  Design Apply(const Dataset& data) const;

  /** @brief The players, as every Design from Apply has them. */
  const std::vector<Player>& players() const noexcept { return players_; }
  /** @brief The names of the design's columns, in order (players' columns contiguous). */
  const std::vector<std::string>& column_names() const noexcept { return column_names_; }
  /** @brief The text-column policy fitted with. */
  TextColumns policy() const noexcept { return policy_; }

 private:
  /** One source column in design order: its name and, for a text column, its sorted levels. */
  struct SourceColumn {
    std::string name;
    bool is_text = false;
    std::vector<std::string> levels;  // sorted; text columns only
  };
  std::vector<SourceColumn> sources_;  // in design order
  std::vector<Player> players_;
  std::vector<std::string> column_names_;
  TextColumns policy_;
  std::string fitted_on_;  // source() of the data fitted on, for messages
};

}}  // namespace perfshap
