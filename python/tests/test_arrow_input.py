# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Arrow data through the PyCapsule protocol (__arrow_c_stream__), as pyarrow, polars, duckdb and
pandas 2 export it. No Arrow library is installed here, so the test builds the C Data Interface
structs itself with ctypes (the producer's side of the protocol): a stream of two record batches
of pima's columns (float64 read in place, the label as int8, a utf8 column) gives bitwise the
XPER of the same DataFrame, and the structs are released."""
import ctypes as C
import os

import numpy as np
import pandas as pd
import pytest

import perfshap


class ArrowSchema(C.Structure):
    pass


class ArrowArray(C.Structure):
    pass


SCHEMA_RELEASE = C.CFUNCTYPE(None, C.POINTER(ArrowSchema))
ARRAY_RELEASE = C.CFUNCTYPE(None, C.POINTER(ArrowArray))
ArrowSchema._fields_ = [("format", C.c_char_p), ("name", C.c_char_p), ("metadata", C.c_char_p),
                        ("flags", C.c_int64), ("n_children", C.c_int64),
                        ("children", C.POINTER(C.POINTER(ArrowSchema))), ("dictionary", C.POINTER(ArrowSchema)),
                        ("release", SCHEMA_RELEASE), ("private_data", C.c_void_p)]
ArrowArray._fields_ = [("length", C.c_int64), ("null_count", C.c_int64), ("offset", C.c_int64),
                       ("n_buffers", C.c_int64), ("n_children", C.c_int64), ("buffers", C.POINTER(C.c_void_p)),
                       ("children", C.POINTER(C.POINTER(ArrowArray))), ("dictionary", C.POINTER(ArrowArray)),
                       ("release", ARRAY_RELEASE), ("private_data", C.c_void_p)]


class ArrowArrayStream(C.Structure):
    pass


GET_SCHEMA = C.CFUNCTYPE(C.c_int, C.POINTER(ArrowArrayStream), C.POINTER(ArrowSchema))
GET_NEXT = C.CFUNCTYPE(C.c_int, C.POINTER(ArrowArrayStream), C.POINTER(ArrowArray))
GET_LAST_ERROR = C.CFUNCTYPE(C.c_char_p, C.POINTER(ArrowArrayStream))
STREAM_RELEASE = C.CFUNCTYPE(None, C.POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [("get_schema", GET_SCHEMA), ("get_next", GET_NEXT), ("get_last_error", GET_LAST_ERROR),
                             ("release", STREAM_RELEASE), ("private_data", C.c_void_p)]

PyCapsule_New = C.pythonapi.PyCapsule_New
PyCapsule_New.restype = C.py_object
PyCapsule_New.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]


@SCHEMA_RELEASE
def release_schema(s):
    s.contents.release = SCHEMA_RELEASE()


@ARRAY_RELEASE
def release_array(a):
    a.contents.release = ARRAY_RELEASE()


class HandBuiltArrow:
    """A producer of the Arrow PyCapsule protocol over numpy columns (the memory stays ours)."""

    def __init__(self, columns, chunks):
        self.columns = columns  # [(name, format, numpy array or list of str)]
        self.chunks = chunks    # [(first, last)] rows of each batch
        self.keep = []
        self.releases = 0
        self.next = 0

    def _schema(self, out):
        children = (C.POINTER(ArrowSchema) * len(self.columns))()
        for k, (name, fmt, _) in enumerate(self.columns):
            child = ArrowSchema(fmt.encode(), name.encode(), None, 2, 0, None, None, release_schema, None)
            self.keep.append(child)
            children[k] = C.pointer(child)
        self.keep.append(children)
        out.contents.format, out.contents.name, out.contents.metadata = b"+s", b"", None
        out.contents.flags, out.contents.n_children, out.contents.children = 0, len(self.columns), children
        out.contents.dictionary = None
        out.contents.release = release_schema

    def _leaf(self, fmt, values, first, last):
        n = last - first
        if fmt in ("u",):
            data = "".join(values[first:last]).encode()
            offsets = np.cumsum([0] + [len(v.encode()) for v in values[first:last]]).astype(np.int32)
            data_buf = C.create_string_buffer(data, max(len(data), 1))
            self.keep += [offsets, data_buf]
            buffers = (C.c_void_p * 3)(None, offsets.ctypes.data, C.addressof(data_buf))
        else:
            buffers = (C.c_void_p * 2)(None, values.ctypes.data)
        self.keep.append(buffers)
        # Offsets into the whole column (the second batch starts at `first`), as Arrow slices do.
        offset = 0 if fmt == "u" else first
        leaf = ArrowArray(n, 0, offset, len(buffers), 0, buffers, None, None, release_array, None)
        self.keep.append(leaf)
        return leaf

    def _batch(self, out, first, last):
        children = (C.POINTER(ArrowArray) * len(self.columns))()
        for k, (_, fmt, values) in enumerate(self.columns):
            children[k] = C.pointer(self._leaf(fmt, values, first, last))
        buffers = (C.c_void_p * 1)(None)
        self.keep += [children, buffers]
        out.contents.length, out.contents.null_count, out.contents.offset = last - first, 0, 0
        out.contents.n_buffers, out.contents.n_children = 1, len(self.columns)
        out.contents.buffers, out.contents.children, out.contents.dictionary = buffers, children, None
        out.contents.release = release_array

    def __arrow_c_stream__(self, requested_schema=None):
        def get_schema(stream, out):
            self._schema(out)
            return 0

        def get_next(stream, out):
            if self.next == len(self.chunks):
                out.contents.release = ARRAY_RELEASE()
                return 0
            self._batch(out, *self.chunks[self.next])
            self.next += 1
            return 0

        def release(stream):
            self.releases += 1
            stream.contents.release = STREAM_RELEASE()

        callbacks = [GET_SCHEMA(get_schema), GET_NEXT(get_next), GET_LAST_ERROR(lambda s: None), STREAM_RELEASE(release)]
        stream = ArrowArrayStream(*callbacks, None)
        self.keep += callbacks + [stream]
        return PyCapsule_New(C.addressof(stream), b"arrow_array_stream", None)


class HandBuiltBatch(HandBuiltArrow):
    """One record batch through __arrow_c_array__ (a struct array and its schema)."""

    def __arrow_c_array__(self, requested_schema=None):
        schema = ArrowSchema()
        array = ArrowArray()
        self._schema(C.pointer(schema))
        self._batch(C.pointer(array), *self.chunks[0])
        self.keep += [schema, array]
        return (PyCapsule_New(C.addressof(schema), b"arrow_schema", None),
                PyCapsule_New(C.addressof(array), b"arrow_array", None))


def pima():
    frame = pd.read_csv(os.path.join(os.environ["PERFSHAP_FIXTURES"], "data", "pima.csv"), float_precision="round_trip")
    return frame.drop(columns=["label"]), frame["label"]


def test_an_arrow_stream_of_two_batches_equals_the_dataframe_bitwise():
    X, y = pima()
    colour = ["red" if v > 120 else "blue" for v in X["glucose"]]
    columns = [(name, "g", np.ascontiguousarray(X[name].to_numpy(dtype=np.float64))) for name in X.columns]
    columns.append(("colour", "u", colour))
    columns.append(("label", "c", np.ascontiguousarray(y.to_numpy().astype(np.int8))))
    arrow = HandBuiltArrow(columns, [(0, 300), (300, len(X))])
    frame = X.assign(colour=colour)
    got = perfshap.xper(arrow, label="label", model="logistic", train=(frame, y), threads=2)
    want = perfshap.xper(frame, y, model="logistic", train=(frame, y), threads=2)
    assert arrow.releases == 1 and arrow.next == 2
    np.testing.assert_array_equal(got.phi, want.phi)
    assert got.value == want.value and list(got.feature_names) == list(want.feature_names)


def test_one_arrow_record_batch_equals_the_dataframe_bitwise():
    X, y = pima()
    columns = [(name, "g", np.ascontiguousarray(X[name].to_numpy(dtype=np.float64))) for name in X.columns]
    columns.append(("label", "c", np.ascontiguousarray(y.to_numpy().astype(np.int8))))
    batch = HandBuiltBatch(columns, [(0, len(X))])
    got = perfshap.xper(batch, label="label", model="logistic", train=(X, y), threads=2)
    want = perfshap.xper(X, y, model="logistic", train=(X, y), threads=2)
    np.testing.assert_array_equal(got.phi, want.phi)
    assert got.value == want.value


def test_arrow_data_take_their_label_as_a_column():
    X, y = pima()
    arrow = HandBuiltArrow([(name, "g", np.ascontiguousarray(X[name].to_numpy())) for name in X.columns], [(0, 10)])
    with pytest.raises(TypeError, match="label as one of its columns"):
        perfshap.xper(arrow, y, model="logistic", train=(X, y))
