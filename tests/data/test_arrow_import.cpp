// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Arrow C Data Interface input (perfshap/arrow.hpp): hand-built arrays of every type it reads
// (with nulls, offsets, a dictionary, two chunks of a stream) give bitwise the data set of the
// same cells from CSV; malformed arrays are refused with one line naming the column, and every
// struct is released whatever happens.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/arrow.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"
#include "support/arrow_builder.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using namespace testing::arrow;  // NOLINT(google-build-using-namespace): the builders

/** The data set ReadTable makes of the table: the label "y", text one-hot free (codes). */
Dataset Read(const Table& t) {
  CsvOptions o;
  o.label = "y";
  o.missing = MissingValues::kDrop;
  return ReadTable(t, o);
}

Dataset ReadCsvText(const std::string& text) {
  const std::string path = testing::WriteTempFile("t.csv", text);
  CsvOptions o;
  o.label = "y";
  o.missing = MissingValues::kDrop;
  return ReadCsv(path, o);
}

void ExpectSameData(const Dataset& a, const Dataset& b) {
  ASSERT_EQ(a.feature_names(), b.feature_names());
  ASSERT_EQ(a.n_rows(), b.n_rows());
  for (std::size_t j = 0; j < a.n_features(); ++j) {
    const auto x = a.column(j);
    const auto y = b.column(j);
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double))) << a.feature_names()[j];
  }
  EXPECT_EQ(0, std::memcmp(a.label().data(), b.label().data(), a.n_rows() * sizeof(double)));
}

TEST(ArrowImport, EveryTypeWithNullsOffsetsAndADictionaryEqualsTheCsv) {
  // Six rows; the arrays start one row in (offset 1) where they can, row 3 (0-based) has nulls
  // and is dropped by missing = drop, as in the CSV.
  const std::vector<bool> all(7, true);
  std::vector<bool> holes(7, true);
  holes[4] = false;  // row 3 after the offset of 1
  int releases = 0;
  std::vector<std::unique_ptr<ArrowSchema>> f;
  std::vector<std::unique_ptr<ArrowArray>> c;
  f.push_back(Field("g", "f64"));
  c.push_back(Leaf({Bitmap(holes), Bytes(std::vector<double>{9, 0.1, -2.5, 3e-300, 7, 1e10, 0.2})}, 7, 1, 1));
  f.push_back(Field("f", "f32"));
  c.push_back(Leaf({{}, Bytes(std::vector<float>{9, 0.5f, 1.25f, -3.0f, 4.5f, 0.0f, 8.0f})}, 7, 0, 1));
  f.push_back(Field("l", "i64"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::int64_t>{9, -7, 1LL << 40, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("i", "i32"));
  c.push_back(Leaf({Bitmap(holes), Bytes(std::vector<std::int32_t>{9, 1, 2, 3, 4, 5, 6})}, 7, 1, 1));
  f.push_back(Field("s", "i16"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::int16_t>{9, -300, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("c", "i8"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::int8_t>{9, -8, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("L", "u64"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::uint64_t>{9, 1ULL << 60, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("I", "u32"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::uint32_t>{9, 4000000000u, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("S", "u16"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::uint16_t>{9, 65535, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("C", "u8"));
  c.push_back(Leaf({{}, Bytes(std::vector<std::uint8_t>{9, 255, 2, 3, 4, 5, 6})}, 7, 0, 1));
  f.push_back(Field("b", "flag"));
  c.push_back(Leaf({{}, Bitmap({false, true, false, true, true, false, true})}, 7, 0, 1));
  f.push_back(Field("u", "colour"));
  c.push_back(Leaf(Utf8({"x", "red", "blue", "red", "", "green", "blue"}, holes), 7, 1, 1));
  f.push_back(Field("U", "size"));
  {
    std::vector<std::int64_t> offsets = {0, 1, 2, 3, 4, 5, 6, 7};
    const std::string data = "xSMLSML";
    c.push_back(Leaf({{}, Bytes(offsets), std::vector<unsigned char>(data.begin(), data.end())}, 7, 0, 1));
  }
  // Dictionary-encoded (int8 indices into utf8 levels): a categorical column.
  {
    auto field = Field("c", "shop");
    auto* sn = static_cast<SchemaNode*>(field->private_data);
    sn->dictionary = Field("u", "");
    field->dictionary = sn->dictionary.get();
    f.push_back(std::move(field));
    auto idx = Leaf({{}, Bytes(std::vector<std::int8_t>{0, 2, 1, 0, 1, 2, 2})}, 7, 0, 1);
    auto* an = static_cast<Node*>(idx->private_data);
    an->dictionary = Leaf(Utf8({"north", "south", "west"}, {true, true, true}), 3, 0, 0);
    idx->dictionary = an->dictionary.get();
    c.push_back(std::move(idx));
  }
  f.push_back(Field("g", "y"));
  c.push_back(Leaf({{}, Bytes(std::vector<double>{9, 1, 0, 1, 0, 1, 0})}, 7, 0, 1));
  ArrowSchema schema;
  ArrowArray array;
  Batch(std::move(f), std::move(c), 6, &schema, &array, &releases);
  {
    const std::shared_ptr<const Table> t = ImportArrowTable(&schema, &array, "the batch");
    EXPECT_EQ(schema.release, nullptr);  // moved in
    EXPECT_EQ(array.release, nullptr);
    EXPECT_EQ(t->n_rows, 6u);
    // float64 without nulls would be read in place; with them, converted; int64 is in place.
    EXPECT_EQ(t->columns[2].type, ColumnType::kInt64);
    const Dataset got = Read(*t);
    const Dataset want = ReadCsvText(
        "f64,f32,i64,i32,i16,i8,u64,u32,u16,u8,flag,colour,size,shop,y\n"
        "0.1,0.5,-7,1,-300,-8,1152921504606846976,4000000000,65535,255,1,red,S,south,1\n"
        "-2.5,1.25,1099511627776,2,2,2,2,2,2,2,0,blue,M,west,0\n"
        "3e-300,-3,3,3,3,3,3,3,3,3,1,red,L,north,1\n"
        ",4.5,4,,4,4,4,4,4,4,1,,S,west,0\n"
        "1e10,0,5,5,5,5,5,5,5,5,0,green,M,south,1\n"
        "0.2,8,6,6,6,6,6,6,6,6,1,blue,L,south,0\n");
    ExpectSameData(got, want);
    EXPECT_EQ(got.n_rows(), 5u);  // the row with nulls dropped, as the CSV's
    EXPECT_EQ(releases, 0);       // the table still reads the arrays in place
  }
  EXPECT_EQ(releases, 2);  // the schema and the array, released once each with the table
}

TEST(ArrowImport, TwoChunksOfAStreamEqualOneBatch) {
  struct Stream {
    int next = 0;
    int releases = 0;
  };
  static const auto make_batch = [](int k, ArrowSchema* s, ArrowArray* a) {
    std::vector<std::unique_ptr<ArrowSchema>> f;
    std::vector<std::unique_ptr<ArrowArray>> c;
    f.push_back(Field("g", "x"));
    f.push_back(Field("u", "colour"));
    f.push_back(Field("g", "y"));
    const std::vector<double> x = k == 0 ? std::vector<double>{0.5, 1.5, 2.5} : std::vector<double>{3.5, 4.5};
    c.push_back(Leaf({{}, Bytes(x)}, static_cast<std::int64_t>(x.size()), 0, 0));
    c.push_back(Leaf(k == 0 ? Utf8({"a", "b", "a"}, {true, true, true}) : Utf8({"b", "c"}, {true, true}),
                     static_cast<std::int64_t>(x.size()), 0, 0));
    c.push_back(Leaf({{}, Bytes(k == 0 ? std::vector<double>{0, 1, 0} : std::vector<double>{1, 1})},
                     static_cast<std::int64_t>(x.size()), 0, 0));
    Batch(std::move(f), std::move(c), static_cast<std::int64_t>(x.size()), s, a);
  };
  Stream state;
  ArrowArrayStream stream{};
  stream.private_data = &state;
  stream.get_schema = [](ArrowArrayStream*, ArrowSchema* out) {
    ArrowArray unused;
    make_batch(0, out, &unused);
    unused.release(&unused);
    return 0;
  };
  stream.get_next = [](ArrowArrayStream* self, ArrowArray* out) {
    auto* st = static_cast<Stream*>(self->private_data);
    if (st->next == 2) {
      out->release = nullptr;
      return 0;
    }
    ArrowSchema unused;
    make_batch(st->next++, &unused, out);
    unused.release(&unused);
    return 0;
  };
  stream.get_last_error = [](ArrowArrayStream*) -> const char* { return nullptr; };
  stream.release = [](ArrowArrayStream* self) {
    ++static_cast<Stream*>(self->private_data)->releases;
    self->release = nullptr;
  };
  const std::shared_ptr<const Table> t = ImportArrowStream(&stream, "the stream");
  EXPECT_EQ(state.releases, 1);
  EXPECT_EQ(t->n_rows, 5u);
  ExpectSameData(Read(*t), ReadCsvText("x,colour,y\n0.5,a,0\n1.5,b,1\n2.5,a,0\n3.5,b,1\n4.5,c,1\n"));
}

TEST(ArrowImport, AnUnknownNullCountReadsTheValidityBitmap) {
  // A column with null_count -1 (unknown): its validity bitmap says which rows are null, as with
  // the count given.
  const std::vector<double> three = {1, 2, 3};
  for (const std::int64_t count : {std::int64_t{1}, std::int64_t{-1}}) {
    SCOPED_TRACE(count);
    std::vector<std::unique_ptr<ArrowSchema>> f;
    std::vector<std::unique_ptr<ArrowArray>> c;
    f.push_back(Field("g", "x"));
    c.push_back(Leaf({Bitmap({true, false, true}), Bytes(three)}, 3, count, 0));
    ArrowSchema schema;
    ArrowArray array;
    Batch(std::move(f), std::move(c), 3, &schema, &array);
    const auto table = ImportArrowTable(&schema, &array, "orders");
    ASSERT_EQ(table->columns.size(), 1u);
    const auto& column = table->columns[0];
    ASSERT_EQ(column.type, ColumnType::kFloat64);
    double v[3];
    for (int i = 0; i < 3; ++i)
      std::memcpy(&v[i], static_cast<const char*>(column.data) + i * column.stride, sizeof(double));
    EXPECT_EQ(v[0], 1.0);
    EXPECT_TRUE(std::isnan(v[1]));
    EXPECT_EQ(v[2], 3.0);
  }
  // The record batch itself with a null row and null_count -1: refused as with the count given.
  std::vector<std::unique_ptr<ArrowSchema>> f;
  std::vector<std::unique_ptr<ArrowArray>> c;
  f.push_back(Field("g", "x"));
  c.push_back(Leaf({{}, Bytes(three)}, 3, 0, 0));
  ArrowSchema schema;
  ArrowArray array;
  Batch(std::move(f), std::move(c), 3, &schema, &array);
  const std::vector<unsigned char> rows = Bitmap({true, true, false});
  array.buffers[0] = rows.data();
  array.null_count = -1;
  testing::ExpectError<DataError>([&] { ImportArrowTable(&schema, &array, "orders"); },
                                  {"orders", "null rows in the record batch itself (row 2)"}, "data");
}

TEST(ArrowImport, MalformedArraysAreRefusedNamingTheColumnAndReleased) {
  using testing::ExpectError;
  // One column of `rows` rows in a batch: refused with `message`, and both structs released.
  const auto one = [](std::unique_ptr<ArrowSchema> field, std::unique_ptr<ArrowArray> column, std::int64_t rows,
                      const std::string& message) {
    SCOPED_TRACE(message);
    int releases = 0;
    std::vector<std::unique_ptr<ArrowSchema>> f;
    std::vector<std::unique_ptr<ArrowArray>> c;
    f.push_back(std::move(field));
    c.push_back(std::move(column));
    ArrowSchema schema;
    ArrowArray array;
    Batch(std::move(f), std::move(c), rows, &schema, &array, &releases);
    ExpectError<DataError>([&] { ImportArrowTable(&schema, &array, "orders"); }, {"orders, column 0", message},
                           "data");
    EXPECT_EQ(releases, 2);
    EXPECT_EQ(schema.release, nullptr);
    EXPECT_EQ(array.release, nullptr);
  };
  const std::vector<double> three = {1, 2, 3};
  one(Field("g", "x"), Leaf({{}, Bytes(three)}, -1, 0, 0), 3, "negative length");
  one(Field("g", "x"), Leaf({{}, Bytes(three)}, 3, 0, -2), 3, "negative offset");
  one(Field("g", "x"), Leaf({{}, Bytes(three), {}}, 3, 0, 0), 3, "3 buffers");
  one(Field("g", "x"), Leaf({{}, Bytes(three)}, 2, 0, 0), 3, "2 rows");
  one(Field("g", "x"), Leaf({{}, {}}, 3, 0, 0), 3, "no data buffer");
  one(Field("u", "t"), Leaf({{}, Bytes(std::vector<std::int32_t>{0, 2, 1, 3}), {'a', 'b', 'c'}}, 3, 0, 0), 3,
      "decrease");
  one(Field("u", "t"), Leaf({{}, Bytes(std::vector<std::int32_t>{-1, 0, 1, 2}), {'a', 'b'}}, 3, 0, 0), 3,
      "negative string offset");
  one(Field("+l", "list"), Leaf({{}}, 3, 0, 0), 3, "not one perfshap reads");
  {
    auto field = Field("c", "shop");
    auto* sn = static_cast<SchemaNode*>(field->private_data);
    sn->dictionary = Field("u", "");
    field->dictionary = sn->dictionary.get();
    auto idx = Leaf({{}, Bytes(std::vector<std::int8_t>{0, 5, 1})}, 3, 0, 0);
    auto* an = static_cast<Node*>(idx->private_data);
    an->dictionary = Leaf(Utf8({"n", "s"}, {true, true}), 2, 0, 0);
    idx->dictionary = an->dictionary.get();
    one(std::move(field), std::move(idx), 3, "dictionary index 5");
  }
  // The messages: one line, naming the source and the column.
  std::vector<std::unique_ptr<ArrowSchema>> f;
  std::vector<std::unique_ptr<ArrowArray>> c;
  f.push_back(Field("g", "price"));
  c.push_back(Leaf({{}, Bytes(three)}, 3, 0, 0));
  c.back()->n_buffers = 1;
  ArrowSchema schema;
  ArrowArray array;
  Batch(std::move(f), std::move(c), 3, &schema, &array);
  ExpectError<DataError>([&] { ImportArrowTable(&schema, &array, "orders"); },
                         {"orders, column 0 'price'", "1 buffers where its type has 2"}, "data");
  // A released array, and a null release callback.
  Batch({}, {}, 0, &schema, &array);
  array.release(&array);
  ExpectError<DataError>([&] { ImportArrowTable(&schema, &array, "orders"); }, {"already released"}, "data");
}

}  // namespace
}}  // namespace perfshap
