// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Hand-built Arrow C Data Interface arrays for the tests (perfshap/arrow.hpp): leaves from raw
// buffers, record batches of them, each struct with a release callback that frees its memory
// and counts its calls.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/arrow.hpp"

namespace perfshap { inline namespace v0 { namespace testing::arrow {

/** The memory of one hand-built array (and its children), freed by its release callback, which
 *  counts its calls. */
struct Node {
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<const void*> pointers;
  std::vector<std::unique_ptr<ArrowArray>> child_arrays;
  std::vector<ArrowArray*> children;
  std::unique_ptr<ArrowArray> dictionary;
  int* releases = nullptr;
};

inline void ReleaseArray(ArrowArray* a) {
  auto* node = static_cast<Node*>(a->private_data);
  if (node->releases != nullptr) ++*node->releases;
  for (auto& c : node->child_arrays)
    if (c->release != nullptr) c->release(c.get());
  if (node->dictionary && node->dictionary->release != nullptr) node->dictionary->release(node->dictionary.get());
  delete node;
  a->release = nullptr;
}

struct SchemaNode {
  std::string format, name;
  std::vector<std::unique_ptr<ArrowSchema>> child_schemas;
  std::vector<ArrowSchema*> children;
  std::unique_ptr<ArrowSchema> dictionary;
  int* releases = nullptr;
};

inline void ReleaseSchema(ArrowSchema* s) {
  auto* node = static_cast<SchemaNode*>(s->private_data);
  if (node->releases != nullptr) ++*node->releases;
  for (auto& c : node->child_schemas)
    if (c->release != nullptr) c->release(c.get());
  if (node->dictionary && node->dictionary->release != nullptr) node->dictionary->release(node->dictionary.get());
  delete node;
  s->release = nullptr;
}

template <class T>
std::vector<unsigned char> Bytes(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/** A validity bitmap: bit i set where valid[i]. */
inline std::vector<unsigned char> Bitmap(const std::vector<bool>& valid) {
  std::vector<unsigned char> b((valid.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < valid.size(); ++i)
    if (valid[i]) b[i / 8] |= static_cast<unsigned char>(1u << (i % 8));
  return b;
}

/** A leaf array: its buffers (an empty validity = none), length, null count and offset. */
inline std::unique_ptr<ArrowArray> Leaf(std::vector<std::vector<unsigned char>> buffers, std::int64_t length,
                                 std::int64_t null_count, std::int64_t offset, int* releases = nullptr) {
  auto* node = new Node;
  node->releases = releases;
  node->buffers = std::move(buffers);
  for (auto& b : node->buffers) node->pointers.push_back(b.empty() ? nullptr : b.data());
  auto a = std::make_unique<ArrowArray>();
  *a = ArrowArray{length, null_count, offset, static_cast<std::int64_t>(node->pointers.size()), 0,
                  node->pointers.data(), nullptr, nullptr, &ReleaseArray, node};
  return a;
}

inline std::unique_ptr<ArrowSchema> Field(const std::string& format, const std::string& name) {
  auto* node = new SchemaNode;
  node->format = format;
  node->name = name;
  auto s = std::make_unique<ArrowSchema>();
  *s = ArrowSchema{node->format.c_str(), node->name.c_str(), nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                   &ReleaseSchema, node};
  return s;
}

/** A record batch of the columns (schema and array moved in). */
inline void Batch(std::vector<std::unique_ptr<ArrowSchema>> fields, std::vector<std::unique_ptr<ArrowArray>> columns,
           std::int64_t length, ArrowSchema* schema, ArrowArray* array, int* releases = nullptr) {
  auto* sn = new SchemaNode;
  sn->format = "+s";
  sn->releases = releases;
  sn->child_schemas = std::move(fields);
  for (auto& f : sn->child_schemas) sn->children.push_back(f.get());
  *schema = ArrowSchema{sn->format.c_str(), "", nullptr, 0, static_cast<std::int64_t>(sn->children.size()),
                        sn->children.data(), nullptr, &ReleaseSchema, sn};
  auto* an = new Node;
  an->releases = releases;
  an->pointers = {nullptr};
  an->child_arrays = std::move(columns);
  for (auto& c : an->child_arrays) an->children.push_back(c.get());
  *array = ArrowArray{length, 0, 0, 1, static_cast<std::int64_t>(an->children.size()), an->pointers.data(),
                      an->children.data(), nullptr, &ReleaseArray, an};
}

/** utf8 buffers of `cells` (an empty optional = null). */
inline std::vector<std::vector<unsigned char>> Utf8(const std::vector<std::string>& cells, const std::vector<bool>& valid) {
  std::vector<std::int32_t> offsets = {0};
  std::string data;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (valid[i]) data += cells[i];
    offsets.push_back(static_cast<std::int32_t>(data.size()));
  }
  return {Bitmap(valid), Bytes(offsets), std::vector<unsigned char>(data.begin(), data.end())};
}

}}}  // namespace perfshap::testing::arrow
