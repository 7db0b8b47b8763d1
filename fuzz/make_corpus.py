#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Writes the hand-made seeds of the fuzz corpora (fuzz/corpus/<target>/seed_*): the inputs of
issue 20 that crashed or misled perfshap (deep nesting, deep and malformed trees, huge numbers,
NUL bytes) and small valid inputs of each format. Inputs that a fuzzer found are kept beside them
as crash_* files, never rewritten here. The fixtures' bad inputs join the corpora when .ci/fuzz
and the FuzzCorpus_* tests run (fuzz/CMakeLists.txt, .ci/fuzz). Run: python3 fuzz/make_corpus.py"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed_" + name), "wb") as f:
        f.write(data)


def nested(depth, open_="[", close="]", inner="1"):
    return open_ * depth + inner + close * depth


def csv_seeds():
    write("csv", "good", "a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n")
    write("csv", "text_levels", 'colour,size,label\nred,1,0\n"blue, dark",2,1\n?,3,0\nred,,1\n')
    write("csv", "quoted_newline", 'a,"b\nc",label\n"1""2",2,0\n3,4,1\n')
    write("csv", "crlf_bom", "\ufeffa;b;label\r\n1;2;M\r\n3;4;B\r\n")
    write("csv", "huge_numbers", "a,b,label\n1e308,-1e308,0\n1e400,5,1\n4.9e-324,inf,0\n")
    write("csv", "nul_bytes", b"\0" * 4096)
    write("csv", "regression", "x1,x2,y\n0.5,NA,1.25\n-2,3,1e300\n")
    write("csv", "wide_header", ",".join("f%d" % i for i in range(3000)) + ",label\n" +
          ",".join("1" for _ in range(3000)) + ",0\n")
    write("csv", "id_column", "id,label\n" + "".join("%d,%d\n" % (i, i % 2) for i in range(200)))


def json_seeds():
    write("groups", "good", json.dumps({"size": ["a", "b"], "colour": ["c"]}))
    write("groups", "nested_deep", "{\"g\":" + nested(5000) + "}")
    write("groups", "nested_objects", nested(200, '{"a":', "}", "1"))
    write("groups", "overflow", '{"g": [1e999]}')
    write("groups", "duplicates", '{"g": ["a", "a"], "g": ["b"], "h": ["a"]}')
    write("groups", "empty", '{"": [], "x": [""]}')
    write("groups", "long_name", json.dumps({"g" * 100000: ["a"]}))

    write("split", "good", json.dumps({"splits": [{"train": [0, 1, 2], "test": [3, 4]}]}))
    write("split", "list", json.dumps([{"train": [0, 2, 4], "test": [1.0, 3]}]))
    write("split", "nested_deep", '{"splits":' + nested(65000) + "}")
    write("split", "overflow", '{"splits":[{"train":[1e999],"test":[0]}]}')
    write("split", "negatives", '{"splits":[{"train":[-1, 18446744073709551616],"test":[0.5, 1]}]}')
    write("split", "unknown_key", '{"splits":[{"train":[0],"test":[1],"valid":[2]}], "x": 1}')

    write("permutation", "good", "2\n0\n4\n1\n3\n")
    write("permutation", "bad", "0\n0\n-1\n1e3\n18446744073709551616\n\n\n x \n")
    write("permutation", "crlf", "1\r\n0\r\n")

    write("coefficients", "good", "name,coef\nconst,0.5\nx1,1.25\nx2,-2\n")
    write("coefficients", "extra_columns", "se,name,coef\n1,const,0\n2,a,1e308\n3,a,2\n")
    write("coefficients", "bad", "name,coef\nx1,1\nconst,nan\n,3\n")


def xgboost_model(trees, n_features=2, objective="binary:logistic", best_iteration=None):
    attrs = {}
    if best_iteration is not None:
        attrs["best_iteration"] = str(best_iteration)
    return json.dumps({
        "learner": {
            "attributes": attrs,
            "feature_names": ["f%d" % i for i in range(n_features)],
            "feature_types": ["float"] * n_features,
            "gradient_booster": {
                "model": {
                    "gbtree_model_param": {"num_trees": str(len(trees)), "num_parallel_tree": "1"},
                    "tree_info": [0] * len(trees),
                    "trees": trees,
                },
                "name": "gbtree",
            },
            "learner_model_param": {"base_score": "5E-1", "num_class": "0", "num_feature": str(n_features)},
            "objective": {"name": objective, "reg_loss_param": {"scale_pos_weight": "1"}},
        },
        "version": [1, 7, 4],
    })


def tree(left, right, split_indices, split_conditions, default_left=None, base_weights=None, hess=None):
    n = len(left)
    return {
        "base_weights": base_weights or [0.0] * n,
        "categories": [], "categories_nodes": [], "categories_segments": [], "categories_sizes": [],
        "default_left": default_left or [1] * n,
        "id": 0,
        "left_children": left,
        "loss_changes": [0.0] * n,
        "parents": [2147483647] + [0] * (n - 1),
        "right_children": right,
        "split_conditions": split_conditions,
        "split_indices": split_indices,
        "split_type": [0] * n,
        "sum_hessian": hess or [1.0] * n,
        "tree_param": {"num_deleted": "0", "num_feature": "2", "num_nodes": str(n), "size_leaf_vector": "0"},
    }


def chain_tree(depth):
    # node 2k splits; its left child 2k+1 is a leaf, its right child 2k+2 goes on.
    left, right, feat, cond = [], [], [], []
    for k in range(depth):
        left.append(2 * k + 1)
        right.append(2 * k + 2)
        feat.append(k % 2)
        cond.append(float(k))
        left.append(-1)
        right.append(-1)
        feat.append(0)
        cond.append(0.25)
    left.append(-1)
    right.append(-1)
    feat.append(0)
    cond.append(-0.5)
    return tree(left, right, feat, cond)


def xgboost_seeds():
    stump = tree([1, -1, -1], [2, -1, -1], [0, 0, 0], [0.5, -0.3, 0.4])
    write("xgboost", "stump", xgboost_model([stump]))
    write("xgboost", "deep_tree", xgboost_model([chain_tree(2000)]))
    write("xgboost", "negative_child", xgboost_model([tree([1, -5, -1], [2, -1, -1], [0, 0, 0], [0.5, 1, 2])]))
    write("xgboost", "cycle", xgboost_model([tree([1, 0, -1], [2, -1, -1], [0, 0, 0], [0.5, 1, 2])]))
    write("xgboost", "shared_child", xgboost_model([tree([1, -1, -1], [1, -1, -1], [0, 0, 0], [0.5, 1, 2])]))
    write("xgboost", "feature_out_of_range", xgboost_model([tree([1, -1, -1], [2, -1, -1], [7, 0, 0], [0.5, 1, 2])]))
    write("xgboost", "huge_leaves", xgboost_model([tree([1, -1, -1], [2, -1, -1], [0, 0, 0], [0.5, 1e308, -1e308])] * 3))
    write("xgboost", "nan_cover", xgboost_model([tree([1, -1, -1], [2, -1, -1], [0, 0, 0], [0.5, 1, 2],
                                                        hess=[1.0, -1.0, 1e-300])]))
    write("xgboost", "early_stopped", xgboost_model([stump, stump, stump], best_iteration=1))
    write("xgboost", "bad_best_iteration", xgboost_model([stump], best_iteration=-7))
    model = json.loads(xgboost_model([stump]))
    model["learner"]["feature_names"] = ["a", "a"]
    write("xgboost", "duplicate_names", json.dumps(model))
    write("xgboost", "regression", xgboost_model([stump], objective="reg:squarederror"))
    write("xgboost", "nested_deep", nested(20000))


def table_seeds():
    # Bytes as fuzz_table.cpp reads them: rows, columns, then per column a name kind, a type, a
    # stride factor and the values; then the options.
    def column(type_index, values, stride=0, name_kind=2):
        return bytes([name_kind, type_index, stride]) + values

    rows = 4
    x = struct.pack("<4d", 0.5, float("nan"), 2.0, -1e308)
    ints = struct.pack("<4q", 1, 2**53 + 1, -(2**63), 7)
    y = struct.pack("<4d", 0, 1, 0, 1)
    write("table", "numbers", bytes([rows, 2]) + column(0, x) + column(2, ints, 1) + bytes([0, 0]) + y[:0] +
          column(0, y, 0, 0) + bytes([0, 0, 3]))
    text = b"".join(bytes([len(s)]) + s for s in (b"red", b"", b"blue", b"red")) + bytes([1, 0, 4, 0, 0])
    write("table", "text", bytes([rows, 1]) + bytes([2, 11]) + text + bytes([0, 0, 1]))
    write("table", "floats", bytes([rows, 0]) + column(1, struct.pack("<4f", 1.0, float("inf"), 3.0, 4.0), 2) +
          bytes([1, 0, 2]))


if __name__ == "__main__":
    csv_seeds()
    json_seeds()
    xgboost_seeds()
    table_seeds()
