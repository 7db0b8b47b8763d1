// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Columns from the Arrow C Data Interface (https://arrow.apache.org/docs/format/CDataInterface.html):
// the three structs below are an ABI, declared here as the specification declares them (no Arrow
// library is needed), and what DuckDB, Polars, pandas 2, Spark and R's arrow export. A record
// batch (a struct array whose children are the columns), or a stream of them, becomes a Table
// that ReadTable reads like any other: numbers without nulls are read in place, the rest are
// converted once.

#include <cstdint>
#include <memory>
#include <string>

#include "perfshap/export.hpp"
#include "perfshap/table.hpp"

#include "perfshap/arrow_c_data.h"

namespace perfshap { inline namespace v0 {

/**
 * @brief The columns of a record batch: `schema` a struct ("+s") whose children name and type
 * the columns, `array` its struct array. Both are moved from (the caller's structs are marked
 * released); the table releases them when the last reference to it goes.
 *
 * Types: float64 ("g") and float32, int8-64 and uint8-64 (read in place when they have no
 * nulls), boolean ("b", bit-packed: converted to bytes), utf8 ("u") and large utf8 ("U") as
 * text, and dictionary-encoded columns (integer indices into a utf8 dictionary) as text, a
 * categorical's levels. Nulls (the validity bitmap) are missing cells: NaN in a numeric column,
 * a missing text cell; ReadTable's `missing` policy decides what becomes of them. Array offsets
 * are honoured.
 * @throws DataError naming the source and the column for a malformed array (a null release
 *   callback, a negative length or offset, a wrong buffer or child count, a missing buffer,
 *   offsets that decrease or start below 0, a dictionary index out of range, a row count that
 *   differs from the batch's) or an unsupported type; nothing is read out of bounds of what the
 *   lengths and offsets declare. The structs are released either way.
 */
PERFSHAP_EXPORT std::shared_ptr<const Table> ImportArrowTable(ArrowSchema* schema, ArrowArray* array,
                                                              const std::string& source);

/**
 * @brief The record batches of a stream (its schema and every batch until the end) as one table:
 * the chunks' columns concatenated (converted once). The stream is released.
 * @throws DataError as ImportArrowTable, and for an error the stream reports (its message).
 */
PERFSHAP_EXPORT std::shared_ptr<const Table> ImportArrowStream(ArrowArrayStream* stream, const std::string& source);

}}  // namespace perfshap
