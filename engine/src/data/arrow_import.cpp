// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Arrow C Data Interface input (perfshap/arrow.hpp). Every length, offset and index is checked
// against what the structs declare before a byte is read: the interface carries no buffer sizes,
// so the checks are the ones the specification makes possible (counts, signs, monotone offsets,
// dictionary indices), and a producer that declares more than it allocated is beyond any reader.
#include "perfshap/arrow.hpp"

#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** A moved-in schema or array, released when it goes. */
struct OwnedSchema {
  ArrowSchema s{};
  OwnedSchema() = default;
  OwnedSchema(const OwnedSchema&) = delete;
  OwnedSchema& operator=(const OwnedSchema&) = delete;
  ~OwnedSchema() {
    if (s.release != nullptr) s.release(&s);
  }
};

struct OwnedArray {
  ArrowArray a{};
  OwnedArray() = default;
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  ~OwnedArray() {
    if (a.release != nullptr) a.release(&a);
  }
};

/** A table and what its columns point into: the arrays read in place and the converted values. */
struct Holder {
  Table table;
  std::vector<std::unique_ptr<OwnedArray>> arrays;
  std::unique_ptr<OwnedSchema> schema;
  std::deque<std::vector<double>> numbers;
  std::deque<std::vector<unsigned char>> bytes;
};

[[noreturn]] void Malformed(const std::string& where, const std::string& what) {
  throw DataError(where + ": " + what + "; perfshap reads Arrow C Data Interface arrays as the specification lays "
                  "them out",
                  {"data"});
}

bool Bit(const void* bitmap, std::int64_t i) {
  return (static_cast<const unsigned char*>(bitmap)[i >> 3] >> (i & 7) & 1) != 0;
}

struct Primitive {
  ColumnType type;
  std::size_t size;
};

std::optional<Primitive> PrimitiveOf(std::string_view format) {
  if (format == "g") return Primitive{ColumnType::kFloat64, 8};
  if (format == "f") return Primitive{ColumnType::kFloat32, 4};
  if (format == "l") return Primitive{ColumnType::kInt64, 8};
  if (format == "i") return Primitive{ColumnType::kInt32, 4};
  if (format == "s") return Primitive{ColumnType::kInt16, 2};
  if (format == "c") return Primitive{ColumnType::kInt8, 1};
  if (format == "L") return Primitive{ColumnType::kUInt64, 8};
  if (format == "I") return Primitive{ColumnType::kUInt32, 4};
  if (format == "S") return Primitive{ColumnType::kUInt16, 2};
  if (format == "C") return Primitive{ColumnType::kUInt8, 1};
  return std::nullopt;
}

/** An integer of the given primitive at index i of `data`, as int64 (uint64 beyond int64's range
 *  is reported as -1, an index no dictionary has). */
std::int64_t IntegerAt(const Primitive& p, const void* data, std::int64_t i) {
  const char* at = static_cast<const char*>(data) + i * static_cast<std::int64_t>(p.size);
  switch (p.type) {
    case ColumnType::kInt64: { std::int64_t v; std::memcpy(&v, at, 8); return v; }
    case ColumnType::kInt32: { std::int32_t v; std::memcpy(&v, at, 4); return v; }
    case ColumnType::kInt16: { std::int16_t v; std::memcpy(&v, at, 2); return v; }
    case ColumnType::kInt8: { std::int8_t v; std::memcpy(&v, at, 1); return v; }
    case ColumnType::kUInt64: {
      std::uint64_t v;
      std::memcpy(&v, at, 8);
      return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ? -1
                                                                                      : static_cast<std::int64_t>(v);
    }
    case ColumnType::kUInt32: { std::uint32_t v; std::memcpy(&v, at, 4); return v; }
    case ColumnType::kUInt16: { std::uint16_t v; std::memcpy(&v, at, 2); return v; }
    case ColumnType::kUInt8: { std::uint8_t v; std::memcpy(&v, at, 1); return v; }
    default: return -1;
  }
}

/** The checks every array makes: its release, counts and the buffers it must have. */
void CheckArray(const ArrowArray& a, std::int64_t buffers, std::int64_t children, const std::string& where) {
  if (a.length < 0) Malformed(where, "a negative length (" + std::to_string(a.length) + ")");
  if (a.offset < 0) Malformed(where, "a negative offset (" + std::to_string(a.offset) + ")");
  if (a.null_count < -1) Malformed(where, "a null count below -1");
  if (a.n_buffers != buffers)
    Malformed(where, std::to_string(a.n_buffers) + " buffers where its type has " + std::to_string(buffers));
  if (a.n_children != children)
    Malformed(where, std::to_string(a.n_children) + " children where its type has " + std::to_string(children));
  if (buffers > 0 && a.buffers == nullptr) Malformed(where, "no buffer list");
  if (children > 0 && a.children == nullptr) Malformed(where, "no child list");
}

/** Whether row i (0-based, before the offset) is null. */
bool IsNull(const ArrowArray& a, std::int64_t i) {
  return a.null_count != 0 && a.buffers[0] != nullptr && !Bit(a.buffers[0], a.offset + i);
}

/** The strings of a utf8 ("u") or large utf8 ("U") array, rows [0, length), offsets checked. */
std::vector<std::string> Strings(const ArrowSchema& s, const ArrowArray& a, const std::string& where,
                                 std::vector<unsigned char>* missing) {
  const bool large = std::string_view(s.format) == "U";
  CheckArray(a, 3, 0, where);
  std::vector<std::string> out(static_cast<std::size_t>(a.length));
  if (a.length == 0) return out;
  if (a.buffers[1] == nullptr) Malformed(where, "no offsets buffer");
  const auto offset_at = [&](std::int64_t i) -> std::int64_t {
    if (large) {
      std::int64_t v;
      std::memcpy(&v, static_cast<const char*>(a.buffers[1]) + i * 8, 8);
      return v;
    }
    std::int32_t v;
    std::memcpy(&v, static_cast<const char*>(a.buffers[1]) + i * 4, 4);
    return v;
  };
  std::int64_t previous = offset_at(a.offset);
  if (previous < 0) Malformed(where, "a negative string offset (" + std::to_string(previous) + ")");
  if (a.buffers[2] == nullptr && offset_at(a.offset + a.length) > previous) Malformed(where, "no data buffer");
  for (std::int64_t i = 0; i < a.length; ++i) {
    const std::int64_t next = offset_at(a.offset + i + 1);
    if (next < previous)
      Malformed(where, "string offsets that decrease (" + std::to_string(previous) + " then " + std::to_string(next) +
                           " at row " + std::to_string(i) + ")");
    if (IsNull(a, i)) {
      if (missing != nullptr) {
        if (missing->empty()) missing->assign(static_cast<std::size_t>(a.length), 0);
        (*missing)[static_cast<std::size_t>(i)] = 1;
      }
    } else {
      out[static_cast<std::size_t>(i)].assign(static_cast<const char*>(a.buffers[2]) + previous,
                                              static_cast<std::size_t>(next - previous));
    }
    previous = next;
  }
  return out;
}

/** One column of the batch: rows [0, n) of child array `a` (its own offset applied). */
TableColumn ImportColumn(const ArrowSchema& s, const ArrowArray& a, std::int64_t n, const std::string& where,
                         Holder& h) {
  if (s.format == nullptr) Malformed(where, "no format string");
  const std::string_view format(s.format);
  TableColumn c;
  c.name = s.name != nullptr ? s.name : "";
  if (a.length < 0) Malformed(where, "a negative length (" + std::to_string(a.length) + ")");
  if (a.offset < 0) Malformed(where, "a negative offset (" + std::to_string(a.offset) + ")");
  if (a.length < n)
    Malformed(where, std::to_string(a.length) + " rows where the batch has " + std::to_string(n));
  if (s.dictionary != nullptr) {  // dictionary-encoded: integer indices into (utf8) values
    const auto index = PrimitiveOf(format);
    if (!index || index->type == ColumnType::kFloat64 || index->type == ColumnType::kFloat32)
      Malformed(where, "a dictionary whose index type '" + std::string(format) + "' is not an integer");
    CheckArray(a, 2, 0, where);
    if (a.dictionary == nullptr) Malformed(where, "a dictionary type without dictionary values");
    const std::string_view value_format = s.dictionary->format != nullptr ? s.dictionary->format : "";
    if (value_format != "u" && value_format != "U")
      throw DataError(where + ": a dictionary of '" + std::string(value_format) +
                          "' values; perfshap reads dictionaries of text (utf8) as categorical columns",
                      {"data"});
    std::vector<unsigned char> dict_missing;
    const std::vector<std::string> levels = Strings(*s.dictionary, *a.dictionary, where + " (dictionary)", &dict_missing);
    if (n > 0 && a.buffers[1] == nullptr) Malformed(where, "no index buffer");
    c.type = ColumnType::kText;
    c.text.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const bool null = IsNull(a, i);
      std::int64_t k = null ? 0 : IntegerAt(*index, a.buffers[1], a.offset + i);
      if (!null && (k < 0 || k >= static_cast<std::int64_t>(levels.size())))
        Malformed(where, "dictionary index " + std::to_string(k) + " at row " + std::to_string(i) +
                             " outside the dictionary's " + std::to_string(levels.size()) + " values");
      if (null || (!dict_missing.empty() && dict_missing[static_cast<std::size_t>(k)] != 0)) {
        if (c.text_missing.empty()) c.text_missing.assign(static_cast<std::size_t>(n), 0);
        c.text_missing[static_cast<std::size_t>(i)] = 1;
      } else {
        c.text[static_cast<std::size_t>(i)] = levels[static_cast<std::size_t>(k)];
      }
    }
    return c;
  }
  if (format == "u" || format == "U") {
    ArrowArray rows = a;
    rows.length = n;
    c.type = ColumnType::kText;
    c.text = Strings(s, rows, where, &c.text_missing);
    return c;
  }
  if (format == "b") {  // bit-packed booleans: one byte each (NaN where null)
    CheckArray(a, 2, 0, where);
    if (n > 0 && a.buffers[1] == nullptr) Malformed(where, "no data buffer");
    std::vector<double>& v = h.numbers.emplace_back(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      v[static_cast<std::size_t>(i)] = IsNull(a, i) ? std::numeric_limits<double>::quiet_NaN()
                                                    : (Bit(a.buffers[1], a.offset + i) ? 1.0 : 0.0);
    c.type = ColumnType::kFloat64;
    c.data = v.data();
    c.stride = sizeof(double);
    return c;
  }
  const auto p = PrimitiveOf(format);
  if (!p)
    throw DataError(where + ": Arrow type '" + std::string(format) +
                        "' is not one perfshap reads (float64/32, int8-64, uint8-64, boolean, utf8, large utf8, "
                        "dictionary of utf8); cast the column",
                    {"data"});
  CheckArray(a, 2, 0, where);
  if (n > 0 && a.buffers[1] == nullptr) Malformed(where, "no data buffer");
  if (a.null_count != 0 && a.buffers[0] != nullptr) {  // nulls: converted once, NaN where null
    TableColumn raw;
    raw.type = p->type;
    raw.data = static_cast<const char*>(a.buffers[1]) + a.offset * static_cast<std::int64_t>(p->size);
    raw.stride = static_cast<std::ptrdiff_t>(p->size);
    std::vector<double>& v = h.numbers.emplace_back(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      v[static_cast<std::size_t>(i)] =
          IsNull(a, i) ? std::numeric_limits<double>::quiet_NaN() : ColumnNumber(raw, static_cast<std::size_t>(i));
    c.type = ColumnType::kFloat64;
    c.data = v.data();
    c.stride = sizeof(double);
    return c;
  }
  // No nulls: read in place.
  c.type = p->type;
  c.data = n > 0 ? static_cast<const char*>(a.buffers[1]) + a.offset * static_cast<std::int64_t>(p->size) : nullptr;
  c.stride = static_cast<std::ptrdiff_t>(p->size);
  return c;
}

/** The columns of one record batch into h.table (reading in place from `array`). */
void ImportBatch(const ArrowSchema& schema, const ArrowArray& array, const std::string& source, Holder& h) {
  if (schema.format == nullptr || std::string_view(schema.format) != "+s")
    Malformed(source, std::string("a record batch is a struct array (format '+s'), not '") +
                          (schema.format != nullptr ? schema.format : "") + "'");
  if (array.release == nullptr) Malformed(source, "an array that is already released");
  CheckArray(array, 1, schema.n_children, source);
  if (schema.n_children > 0 && schema.children == nullptr) Malformed(source, "a schema without its child list");
  if (array.null_count > 0) Malformed(source, "null rows in the record batch itself");
  // A null count of -1 is unknown: the validity bitmap says.
  if (array.null_count == -1 && array.buffers[0] != nullptr)
    for (std::int64_t i = 0; i < array.length; ++i)
      if (IsNull(array, i)) Malformed(source, "null rows in the record batch itself (row " + std::to_string(i) + ")");
  Table& t = h.table;
  t.source = source;
  t.n_rows = static_cast<std::size_t>(array.length);
  for (std::int64_t k = 0; k < schema.n_children; ++k) {
    const ArrowSchema* s = schema.children[k];
    const ArrowArray* a = array.children[k];
    const std::string where = source + ", column " + std::to_string(k) +
                              (s != nullptr && s->name != nullptr ? " '" + std::string(s->name) + "'" : "");
    if (s == nullptr || a == nullptr) Malformed(where, "a null child");
    // A struct's offset applies to its children: view the child from the batch's first row.
    ArrowArray view = *a;
    view.offset += array.offset;
    view.length -= array.offset;
    t.columns.push_back(ImportColumn(*s, view, array.length, where, h));
  }
}

/** Moves `from` into a new owned array (the caller's is marked released). */
std::unique_ptr<OwnedArray> Take(ArrowArray* from) {
  auto owned = std::make_unique<OwnedArray>();
  owned->a = *from;
  from->release = nullptr;
  return owned;
}

}  // namespace

std::shared_ptr<const Table> ImportArrowTable(ArrowSchema* schema, ArrowArray* array, const std::string& source) {
  if (schema == nullptr || array == nullptr) throw InvalidArgument(source + ": no Arrow schema or array", {"data"});
  auto holder = std::make_shared<Holder>();
  holder->schema = std::make_unique<OwnedSchema>();
  holder->schema->s = *schema;
  schema->release = nullptr;
  const bool released = array->release == nullptr;
  holder->arrays.push_back(Take(array));
  if (holder->schema->s.release == nullptr) Malformed(source, "a schema that is already released (no release callback)");
  if (released) Malformed(source, "an array that is already released (no release callback)");
  ImportBatch(holder->schema->s, holder->arrays.back()->a, source, *holder);
  return {holder, &holder->table};
}

std::shared_ptr<const Table> ImportArrowStream(ArrowArrayStream* stream, const std::string& source) {
  if (stream == nullptr || stream->release == nullptr)
    throw InvalidArgument(source + ": no Arrow stream, or one already released", {"data"});
  struct Release {
    ArrowArrayStream* s;
    ~Release() {
      if (s->release != nullptr) s->release(s);
    }
  } release{stream};
  const auto failed = [&](int code, const char* what) {
    const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
    throw DataError(source + ": the Arrow stream failed to give its " + what + " (error " + std::to_string(code) +
                        (message != nullptr ? ": " + std::string(message) : std::string()) + ")",
                    {"data"});
  };
  OwnedSchema schema;
  if (const int code = stream->get_schema(stream, &schema.s); code != 0) failed(code, "schema");
  if (schema.s.release == nullptr) Malformed(source, "a stream schema without a release callback");
  // Every chunk's columns, read as a batch, then appended to the columns (converted once).
  auto holder = std::make_shared<Holder>();
  Table& t = holder->table;
  t.source = source;
  std::vector<std::vector<double>*> numbers;
  for (int chunk = 0;; ++chunk) {
    OwnedArray array;
    if (const int code = stream->get_next(stream, &array.a); code != 0) failed(code, "next batch");
    if (array.a.release == nullptr) break;  // the end
    Holder batch;
    ImportBatch(schema.s, array.a, source + " (batch " + std::to_string(chunk) + ")", batch);
    if (t.columns.empty()) {
      for (const TableColumn& c : batch.table.columns) {
        TableColumn out;
        out.name = c.name;
        out.type = c.type == ColumnType::kText ? ColumnType::kText : ColumnType::kFloat64;
        out.stride = sizeof(double);
        t.columns.push_back(std::move(out));
        numbers.push_back(c.type == ColumnType::kText ? nullptr : &holder->numbers.emplace_back());
      }
    }
    for (std::size_t j = 0; j < t.columns.size(); ++j) {
      const TableColumn& c = batch.table.columns[j];
      TableColumn& out = t.columns[j];
      if ((c.type == ColumnType::kText) != (out.type == ColumnType::kText))
        Malformed(source, "column '" + out.name + "' changes between text and numbers from one batch to the next");
      if (out.type == ColumnType::kText) {
        if (!c.text_missing.empty() && out.text_missing.empty()) out.text_missing.assign(out.text.size(), 0);
        for (std::size_t i = 0; i < c.text.size(); ++i) {
          out.text.push_back(c.text[i]);
          if (!out.text_missing.empty())
            out.text_missing.push_back(!c.text_missing.empty() && c.text_missing[i] != 0 ? 1 : 0);
        }
      } else {
        for (std::size_t i = 0; i < batch.table.n_rows; ++i) numbers[j]->push_back(ColumnNumber(c, i));
      }
    }
    t.n_rows += batch.table.n_rows;
  }
  for (std::size_t j = 0; j < t.columns.size(); ++j)
    if (numbers[j] != nullptr) t.columns[j].data = numbers[j]->data();
  return {holder, &holder->table};
}

}}  // namespace perfshap
