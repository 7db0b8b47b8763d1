/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The perfshap authors */
#ifndef PERFSHAP_C_API_H_
#define PERFSHAP_C_API_H_

/*
 * perfshap's C ABI (libperfshap_c.so): for hosts that link C, not C++ (database engines, JVM
 * services, R, Julia, Go, Rust). It is a thin layer over the library's request layer, the one the
 * command line and Python use, so the same data, options and seed give the same numbers bit for
 * bit.
 *
 * - Opaque handles: a table (columns the caller lends), a model, a request and a result. Each
 *   is made by a perfshap_*_create / perfshap_model_* call and released by its perfshap_*_free.
 * - Every function that can fail returns an int status: PERFSHAP_OK (0) or the kind of error.
 *   The message (one line: what was wrong, where, what to do) and the names of the options it is
 *   about are the calling thread's last error (perfshap_last_error*), kept until its next failing
 *   call. No C++ exception ever crosses this boundary.
 * - Options are one JSON object whose keys are the command line's long option names with '_'
 *   for '-' (as result.json names them): {"threads": 2, "solver": "kernel", "budget": 5000}.
 *   An unknown option is refused, naming it.
 * - Results are lent: a pointer read from a result stays valid until perfshap_result_free; or
 *   copied into the caller's buffer (perfshap_result_copy_array).
 *
 * Methods: "robustness", "xper", "shap", "treeshap", "sage", "axom", "chains", "demo", "xper-montecarlo";
 * each takes the command line's options of the same name, and the tables its command reads from
 * files: "data" (every method but xper-montecarlo), "train" (xper, shap, sage: a learner's
 * training sample), "background" (shap, treeshap, sage), and a model (xper, shap, treeshap, sage).
 *
 * Thread safety: handles are not shared between threads while one of them is being changed;
 * separate requests run concurrently. perfshap_request_cancel may be called from any thread
 * while perfshap_run runs.
 */

#include <stddef.h>
#include <stdint.h>

#include "perfshap/arrow_c_data.h" /* the Arrow structs of perfshap_table_from_arrow */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PERFSHAP_C_EXPORT __attribute__((visibility("default")))
#else
#define PERFSHAP_C_EXPORT
#endif

/** The ABI's version: the soname's number (libperfshap_c.so.1). */
#define PERFSHAP_C_ABI_VERSION 1

/** Status codes. */
enum {
  PERFSHAP_OK = 0,
  PERFSHAP_ERROR_INVALID_ARGUMENT = 1, /**< an option or a call outside its domain */
  PERFSHAP_ERROR_DATA = 2,             /**< the data or the model cannot be used as they are */
  PERFSHAP_ERROR_RESOURCE = 3,         /**< the run would exceed a memory or evaluation limit */
  PERFSHAP_ERROR_CANCELLED = 4,        /**< perfshap_request_cancel, or the progress callback said stop */
  PERFSHAP_ERROR_OTHER = 5             /**< anything else (out of memory, an internal error) */
};

/** Column types of perfshap_table_add_numeric. */
enum {
  PERFSHAP_FLOAT64 = 1,
  PERFSHAP_FLOAT32 = 2,
  PERFSHAP_INT64 = 3,
  PERFSHAP_INT32 = 4,
  PERFSHAP_INT16 = 5,
  PERFSHAP_INT8 = 6,
  PERFSHAP_UINT64 = 7,
  PERFSHAP_UINT32 = 8,
  PERFSHAP_UINT16 = 9,
  PERFSHAP_UINT8 = 10,
  PERFSHAP_BOOL = 11 /**< one byte a value, 0 or 1 */
};


typedef struct PerfshapTable PerfshapTable;
typedef struct PerfshapModel PerfshapModel;
typedef struct PerfshapRequest PerfshapRequest;
typedef struct PerfshapResult PerfshapResult;

/** The library's version, e.g. "0.1.0" (static storage). */
PERFSHAP_C_EXPORT const char* perfshap_version(void);

/** Destroys the thread arenas the library keeps idle for its next computation (at most 4 are
 *  kept, none past 30 s idle); for a host done with perfshap for a while. Returns how many. */
PERFSHAP_C_EXPORT size_t perfshap_release_idle_arenas(void);

/** The calling thread's last error message ("" when none). Valid until its next failing call. */
PERFSHAP_C_EXPORT const char* perfshap_last_error(void);
/** Its status code (PERFSHAP_OK when none). */
PERFSHAP_C_EXPORT int perfshap_last_error_kind(void);
/** The number of option names the last error is about, and the i-th (NULL past the end). */
PERFSHAP_C_EXPORT size_t perfshap_last_error_option_count(void);
PERFSHAP_C_EXPORT const char* perfshap_last_error_option(size_t i);

/**
 * A table of columns of one length. Numeric columns are lent: the caller keeps `values` alive
 * and unchanged until every request using the table has run and the table is freed; each value
 * is read in place (through `stride_bytes`, 0 = contiguous) and converted once. Text columns
 * are copied. `source` names the table in messages (e.g. "orders").
 */
PERFSHAP_C_EXPORT int perfshap_table_create(const char* source, PerfshapTable** out);
PERFSHAP_C_EXPORT int perfshap_table_add_numeric(PerfshapTable* table, const char* name, int type, const void* values,
                                                 int64_t n_rows, int64_t stride_bytes);
/** A text column: n_rows UTF-8 cells; a NULL cell is missing. */
PERFSHAP_C_EXPORT int perfshap_table_add_text(PerfshapTable* table, const char* name, const char* const* cells,
                                              int64_t n_rows);
/**
 * A table of an Arrow record batch (a struct array "+s" whose children are the columns), as
 * DuckDB, Polars, pandas 2, Spark and R's arrow export it. `schema` and `array` are moved in (the
 * caller's are marked released); the table releases them when it is freed and every request
 * using it has run. Types: float64/32, int8-64, uint8-64 (read in place without nulls), boolean,
 * utf8, large utf8 and dictionary-encoded utf8 (text); nulls are missing cells. A malformed array
 * is refused (PERFSHAP_ERROR_DATA) naming the column. Such a table takes no more columns.
 */
PERFSHAP_C_EXPORT int perfshap_table_from_arrow(const char* source, struct ArrowSchema* schema,
                                                struct ArrowArray* array, PerfshapTable** out);
/** The record batches of an Arrow stream as one table (the chunks concatenated, converted once);
 *  the stream is released. */
PERFSHAP_C_EXPORT int perfshap_table_from_arrow_stream(const char* source, struct ArrowArrayStream* stream,
                                                       PerfshapTable** out);
PERFSHAP_C_EXPORT void perfshap_table_free(PerfshapTable* table);

/** An XGBoost model from its JSON text (Booster.save_raw("json")); `name` names it in messages
 *  and the report. */
PERFSHAP_C_EXPORT int perfshap_model_from_xgboost_json(const char* json, size_t length, const char* name,
                                                       PerfshapModel** out);
/** An XGBoost model from its JSON file, read once when the handle is made: the handle holds the
 *  model it read, and a later change of the file changes nothing it explains. A file that is not
 *  UTF-8 JSON text (a NUL byte: /dev/zero) or is over 1 GiB (PERFSHAP_MAX_JSON_BYTES) is refused
 *  as soon as that is seen. */
PERFSHAP_C_EXPORT int perfshap_model_from_file(const char* path, PerfshapModel** out);
/** The number of the model's input features. */
PERFSHAP_C_EXPORT int perfshap_model_n_features(const PerfshapModel* model, size_t* out);
PERFSHAP_C_EXPORT void perfshap_model_free(PerfshapModel* model);

/** A request: a method (see above) and its options as JSON text (NULL or "" for none). Options
 *  are checked by perfshap_run. */
PERFSHAP_C_EXPORT int perfshap_request_create(const char* method, const char* options_json, PerfshapRequest** out);
/** A table in a role: "data" (the rows: XPER's sample, the rows shap explains), "train" (the
 *  training sample a learner is fitted on) or "background" (shap's background rows). The request
 *  shares the table; it may be freed after this call, its lent columns may not. */
PERFSHAP_C_EXPORT int perfshap_request_set_table(PerfshapRequest* request, const char* role,
                                                 const PerfshapTable* table);
/** The fitted model explained (XPER: the metric of its predictions; shap, treeshap; axom refuses
 *  a boosted model, naming why). Shared. */
PERFSHAP_C_EXPORT int perfshap_request_set_model(PerfshapRequest* request, const PerfshapModel* model);
/**
 * Progress: `callback(done, total, elapsed_seconds, user)`, called during perfshap_run on a
 * thread of perfshap's own (never one of the engine's workers, never two calls at once), at most
 * 10 times a second with the latest report (reports that come while a call runs are coalesced),
 * and once more at the end on the thread that called perfshap_run. A slow callback slows no
 * computation. A non-zero return stops the run (perfshap_run then returns
 * PERFSHAP_ERROR_CANCELLED); the return of the final call is not read, since the run is over.
 */
typedef int (*PerfshapProgressCallback)(uint64_t done, uint64_t total, double elapsed_seconds, void* user);
PERFSHAP_C_EXPORT int perfshap_request_set_progress(PerfshapRequest* request, PerfshapProgressCallback callback,
                                                    void* user);
/**
 * The processes of an MPI job that run this request together: `mpi_comm` points to the caller's
 * MPI_Comm (duplicated here; NULL: this process alone). Every process of it creates the same
 * request and calls perfshap_run; each runs a share of the work and every one gets the whole
 * result, bitwise one process's (docs/mpi.md). MPI must be initialized with
 * MPI_THREAD_FUNNELED or more; PERFSHAP_ERROR_INVALID_ARGUMENT when it is not, or when this
 * library was built without MPI.
 */
PERFSHAP_C_EXPORT int perfshap_request_set_mpi_comm(PerfshapRequest* request, const void* mpi_comm);
/** Asks a running perfshap_run of this request to stop (from any thread); called before
 *  perfshap_run, that run returns PERFSHAP_ERROR_CANCELLED at once. Each perfshap_run clears the
 *  request's cancellation when it returns, so the request can run again. */
PERFSHAP_C_EXPORT int perfshap_request_cancel(PerfshapRequest* request);
PERFSHAP_C_EXPORT void perfshap_request_free(PerfshapRequest* request);

/** Runs the request; on PERFSHAP_OK `*out` is the result (free it with perfshap_result_free).
 *  With the option "out" the run's files are also written to that directory (atomically; an
 *  existing one only with "force": true). */
PERFSHAP_C_EXPORT int perfshap_run(PerfshapRequest* request, PerfshapResult** out);

/**
 * A named array of the result: row-major values, its shape and rank (0 for one number). Lent
 * until perfshap_result_free. Every method's record has its numbers as arrays (perfshap_result_keys
 * lists them): XPER: "value", "base", "phi"; shap and treeshap: "values" (rows x outputs x
 * players), "base_values" (rows x outputs); robustness: "value" (mean AUC), "value_std", "base",
 * "phi", "phi_std", "phi_se", "auprc", "auprc_std", "phi_auprc", "phi_auprc_std", "phi_auprc_se",
 * "auc_by_split", "n_splits", "n_trainings"; axom of a given forest: "values", "forest_values",
 * "labels", "kept_trees", "l_bar_rf", "l_hat_rf", "l_bar_axom", "l_hat_axom",
 * "mislabelling_per_row"; axom's protocol: "accuracy" (seeds x tree, forest), "mislabelling",
 * "l_bar_dt", "l_bar_rf", "l_bar_axom" (seeds x test points), "seeds" (with "paper": each after
 * "<data set>."); chains: "direct", "indirect", "total", "independent" (outputs x features,
 * averaged over the orders), "order_direct", "order_indirect" (orders x outputs x features),
 * "order_hamming_loss", "hamming_loss"; xper-montecarlo: "auc", "base", "phi" (samples x
 * features), "coefficients", "distributions"; demo: "values", "xper_phi", "robustness_phi",
 * "robustness_phi_std", "sampled_phi", "sampled_phi_se". result.json holds the run's settings
 * and summaries besides.
 */
PERFSHAP_C_EXPORT int perfshap_result_array(const PerfshapResult* result, const char* name, const double** values,
                                            const size_t** shape, size_t* ndim);
/** The same array copied into `out` (capacity values); `*size` its number of values. A capacity
 *  too small is refused (PERFSHAP_ERROR_INVALID_ARGUMENT) with *size set. */
PERFSHAP_C_EXPORT int perfshap_result_copy_array(const PerfshapResult* result, const char* name, double* out,
                                                 size_t capacity, size_t* size);
/** A list of names of the result ("feature_names" of XPER, robustness and axom; "players",
 *  "outputs" of shap; "class_names" of axom). Lent. */
PERFSHAP_C_EXPORT int perfshap_result_names(const PerfshapResult* result, const char* name,
                                            const char* const** names, size_t* count);
/** What perfshap_result_keys lists. */
enum { PERFSHAP_ARRAYS = 0, PERFSHAP_NAMES = 1 };

/** The names of the result's arrays (which = PERFSHAP_ARRAYS: perfshap_result_array's) or lists
 *  of names (PERFSHAP_NAMES: perfshap_result_names'), in the record's order. Lent. */
PERFSHAP_C_EXPORT int perfshap_result_keys(const PerfshapResult* result, int which, const char* const** keys,
                                           size_t* count);
/** The console summary the command line prints for the same run. Lent. */
PERFSHAP_C_EXPORT int perfshap_result_console(const PerfshapResult* result, const char** text);
/** One of the run's files ("result.json", a CSV, an SVG), written in memory when first asked.
 *  Lent. */
PERFSHAP_C_EXPORT int perfshap_result_file(PerfshapResult* result, const char* file, const char** content,
                                           size_t* length);
PERFSHAP_C_EXPORT void perfshap_result_free(PerfshapResult* result);

#ifdef __cplusplus
}
#endif

#endif /* PERFSHAP_C_API_H_ */
