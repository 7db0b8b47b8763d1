// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The C ABI (perfshap/c_api.h) over the request layer: handles own the library's objects, each
// entry point catches every exception into the thread's last error and a status, and a method
// call is the registry's (api::CallMethod: the method by name, its options as the JSON gives
// them) -> api::MethodRun, as in Python and on the command line.
#include "perfshap/c_api.h"
#include "perfshap/arrow.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iterator>
#include <mutex>
#include <thread>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/method_run.hpp"
#include "api/registry.hpp"
#include "data/message_text.hpp"
#include "data/json_text.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/table.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/version_config.hpp"
#include "report/run_reporter.hpp"
#include "schedule/agreement.hpp"

struct PerfshapTable {
  /** Columns added one by one (null for an Arrow table, which takes no more). */
  std::shared_ptr<perfshap::Table> built = std::make_shared<perfshap::Table>();
  /** What requests read: `built`, or the Arrow import. */
  std::shared_ptr<const perfshap::Table> table = built;
};

struct PerfshapModel {
  std::string name;  // the file's path, or the caller's name for JSON text
  std::string json;  // the model's JSON text, read once (perfshap_model_from_file reads the file here)
  std::size_t n_features = 0;
};

namespace {

/**
 * Calls a request's C progress callback off the engine's threads: the engine's progress hook
 * only keeps the latest report (a short lock), and a thread of the relay's own hands it to the
 * callback at most every 100 ms, so a slow callback never holds a worker or a lock the workers
 * need; reports that come while it runs are coalesced into the latest. Finish() joins that thread
 * and makes the last call, with the last report, on the caller's thread.
 */
class ProgressRelay {
 public:
  ProgressRelay(PerfshapProgressCallback callback, void* user, std::atomic<bool>* cancel)
      : callback_(callback), user_(user), cancel_(cancel) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~ProgressRelay() { Finish(); }
  ProgressRelay(const ProgressRelay&) = delete;
  ProgressRelay& operator=(const ProgressRelay&) = delete;

  /** From the engine's threads: keeps `p` as the latest report. */
  void Post(const perfshap::Progress& p) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      pending_ = p;
      last_ = p;
    }
    wake_.notify_one();
  }

  /** Stops the relay's thread; then the final call (its return value is not read: the run is
   *  over). Idempotent. */
  void Finish() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) return;
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (last_) callback_(last_->done, last_->total, last_->elapsed_seconds, user_);
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      // A report is handed over as soon as it comes, then the next not before 100 ms.
      wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      const perfshap::Progress p = *pending_;
      pending_.reset();
      lock.unlock();
      if (callback_(p.done, p.total, p.elapsed_seconds, user_) != 0) *cancel_ = true;
      lock.lock();
      wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; });
      if (stop_) return;
    }
  }

  PerfshapProgressCallback callback_;
  void* user_;
  std::atomic<bool>* cancel_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<perfshap::Progress> pending_;  // not yet handed to the callback
  std::optional<perfshap::Progress> last_;     // the latest of all, for the final call
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

struct PerfshapRequest {
  std::string method;
  nlohmann::json options;
  std::shared_ptr<const perfshap::Table> data, train, background;
  std::optional<PerfshapModel> model;
  std::shared_ptr<const perfshap::Processes> processes;  // perfshap_request_set_mpi_comm
  PerfshapProgressCallback progress = nullptr;
  void* user = nullptr;
  std::atomic<bool> cancel{false};
  std::unique_ptr<ProgressRelay> relay;  // during perfshap_run, when a callback is set
};

struct PerfshapResult {
  perfshap::api::MethodRun run;
  perfshap::detail::ReportTarget target;
  std::optional<std::vector<perfshap::detail::ReportFile>> files;
  std::vector<std::vector<const char*>> name_pointers;  // per run.names, into its strings
  std::vector<const char*> array_keys, names_keys;       // run.arrays' and run.names' names
};

namespace {

struct LastError {
  std::string message;
  int kind = PERFSHAP_OK;
  std::vector<std::string> options;
};

thread_local LastError t_error;

void SetError(int kind, std::string message, std::vector<std::string> options = {}) {
  t_error.kind = kind;
  t_error.message = perfshap::detail::ShortenLongWords(message);  // a value echoed whole, cut
  // The options as the caller's JSON spells them.
  for (std::string& option : options) option = perfshap::api::OptionKeyOf(option);
  t_error.options = std::move(options);
}

/** Runs `body`; every exception becomes the thread's last error and its status. */
template <class Body>
int Guard(Body&& body) noexcept {
  try {
    body();
    return PERFSHAP_OK;
  } catch (const perfshap::InvalidArgument& e) {
    SetError(PERFSHAP_ERROR_INVALID_ARGUMENT, e.what(), e.options());
  } catch (const perfshap::DataError& e) {
    SetError(PERFSHAP_ERROR_DATA, e.what(), e.options());
  } catch (const perfshap::ResourceError& e) {
    SetError(PERFSHAP_ERROR_RESOURCE, e.what(), e.options());
  } catch (const perfshap::Cancelled& e) {
    SetError(PERFSHAP_ERROR_CANCELLED, e.what(), e.options());
  } catch (const perfshap::Error& e) {
    SetError(PERFSHAP_ERROR_OTHER, e.what(), e.options());
  } catch (const std::bad_alloc&) {
    SetError(PERFSHAP_ERROR_OTHER, "out of memory");
  } catch (const std::exception& e) {
    SetError(PERFSHAP_ERROR_OTHER, e.what());
  } catch (...) {
    SetError(PERFSHAP_ERROR_OTHER, "an unknown error");
  }
  return t_error.kind;
}

void NotNull(const void* p, const char* what) {
  if (p == nullptr) throw perfshap::InvalidArgument(std::string(what) + " is NULL", {what});
}

std::optional<perfshap::ColumnType> TypeOf(int type) {
  using perfshap::ColumnType;
  switch (type) {
    case PERFSHAP_FLOAT64: return ColumnType::kFloat64;
    case PERFSHAP_FLOAT32: return ColumnType::kFloat32;
    case PERFSHAP_INT64: return ColumnType::kInt64;
    case PERFSHAP_INT32: return ColumnType::kInt32;
    case PERFSHAP_INT16: return ColumnType::kInt16;
    case PERFSHAP_INT8: return ColumnType::kInt8;
    case PERFSHAP_UINT64: return ColumnType::kUInt64;
    case PERFSHAP_UINT32: return ColumnType::kUInt32;
    case PERFSHAP_UINT16: return ColumnType::kUInt16;
    case PERFSHAP_UINT8: return ColumnType::kUInt8;
    case PERFSHAP_BOOL: return ColumnType::kBool;
    default: return std::nullopt;
  }
}

std::size_t SizeOf(int type) {
  switch (type) {
    case PERFSHAP_FLOAT64: case PERFSHAP_INT64: case PERFSHAP_UINT64: return 8;
    case PERFSHAP_FLOAT32: case PERFSHAP_INT32: case PERFSHAP_UINT32: return 4;
    case PERFSHAP_INT16: case PERFSHAP_UINT16: return 2;
    default: return 1;
  }
}

/** Adds a column, checking its name and its length against the table's. */
void AddColumn(PerfshapTable* t, perfshap::TableColumn column, int64_t n_rows) {
  if (t->built == nullptr)
    throw perfshap::InvalidArgument(t->table->source + " is an Arrow table; it takes no more columns (add them to "
                                                       "the record batch)",
                                    {"table"});
  perfshap::Table& table = *t->built;
  if (n_rows < 0)
    throw perfshap::InvalidArgument(table.source + ": column '" + column.name + "' has a negative row count (" +
                                        std::to_string(n_rows) + ")",
                                    {"n_rows"});
  const auto n = static_cast<std::size_t>(n_rows);
  if (!table.columns.empty() && n != table.n_rows)
    throw perfshap::InvalidArgument(table.source + ": column '" + column.name + "' has " + std::to_string(n) +
                                        " rows and the first column " + std::to_string(table.n_rows) +
                                        "; give columns of one length",
                                    {"n_rows"});
  for (const auto& c : table.columns)
    if (c.name == column.name)
      throw perfshap::InvalidArgument(table.source + " has two columns named '" + column.name + "'; rename one",
                                      {"name"});
  table.n_rows = n;
  table.columns.push_back(std::move(column));
}

/** Progress and cancellation of the request wired into a run's execution. */
void Wire(PerfshapRequest* r, perfshap::ExecutionOptions& execution) {
  execution.cancel = &r->cancel;
  if (r->processes != nullptr) execution.processes = r->processes;
  if (r->relay != nullptr) {
    ProgressRelay* relay = r->relay.get();
    execution.progress = [relay](const perfshap::Progress& p) { relay->Post(p); };
  }
}

/** A method of the registry (api/registry.hpp): the request's tables, model and hooks, its options
 *  as the library reads every front end's. */
perfshap::api::MethodCall CallRegistered(PerfshapRequest* r) {
  namespace api = perfshap::api;
  nlohmann::json options = r->options;
  std::shared_ptr<const perfshap::Processes> processes = api::TakeMpiComm(options);
  api::MethodInputs in;
  in.data = r->data;
  in.train = r->train;
  in.background = r->background;
  if (r->model) {
    in.model.emplace();
    in.model->name = in.model->tree_file = r->model->name;
    in.model->tree_text = r->model->json;
  }
  in.wire = [r, processes](perfshap::ExecutionOptions& e, const std::string&) {
    if (processes != nullptr) e.processes = processes;
    Wire(r, e);
  };
  return api::CallMethod(r->method, std::move(in), api::OptionTextOfJson(options));
}

const perfshap::api::ResultArray& ArrayOf(const PerfshapResult* result, const char* name) {
  NotNull(result, "result");
  NotNull(name, "name");
  const perfshap::api::ResultArray* a = result->run.Array(name);
  if (a == nullptr) {
    std::string known;
    for (const auto& x : result->run.arrays) known += (known.empty() ? "" : ", ") + x.name;
    throw perfshap::InvalidArgument("the " + result->run.method + " result has no array '" + name + "'; its arrays: " +
                                        known,
                                    {"name"});
  }
  return *a;
}

}  // namespace

extern "C" {

const char* perfshap_version(void) { return PERFSHAP_VERSION_STRING; }

size_t perfshap_release_idle_arenas(void) {
  try {
    return perfshap::ReleaseIdleArenas();
  } catch (...) {
    return 0;  // nothing to report: the arenas stay
  }
}

const char* perfshap_last_error(void) { return t_error.message.c_str(); }

int perfshap_last_error_kind(void) { return t_error.kind; }

size_t perfshap_last_error_option_count(void) { return t_error.options.size(); }

const char* perfshap_last_error_option(size_t i) {
  return i < t_error.options.size() ? t_error.options[i].c_str() : nullptr;
}

int perfshap_table_create(const char* source, PerfshapTable** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    auto t = std::make_unique<PerfshapTable>();
    if (source != nullptr && *source != '\0') t->built->source = source;
    *out = t.release();
  });
}

int perfshap_table_add_numeric(PerfshapTable* table, const char* name, int type, const void* values,
                               int64_t n_rows, int64_t stride_bytes) {
  return Guard([&] {
    NotNull(table, "table");
    NotNull(name, "name");
    const auto t = TypeOf(type);
    if (!t)
      throw perfshap::InvalidArgument("column '" + std::string(name) + "': type " + std::to_string(type) +
                                          " is not a column type; use PERFSHAP_FLOAT64 ... PERFSHAP_BOOL",
                                      {"type"});
    if (n_rows > 0) NotNull(values, "values");
    perfshap::TableColumn c;
    c.name = name;
    c.type = *t;
    c.data = values;
    c.stride = stride_bytes == 0 ? static_cast<std::ptrdiff_t>(SizeOf(type)) : static_cast<std::ptrdiff_t>(stride_bytes);
    AddColumn(table, std::move(c), n_rows);
  });
}

int perfshap_table_add_text(PerfshapTable* table, const char* name, const char* const* cells, int64_t n_rows) {
  return Guard([&] {
    NotNull(table, "table");
    NotNull(name, "name");
    if (n_rows > 0) NotNull(cells, "cells");
    perfshap::TableColumn c;
    c.name = name;
    c.type = perfshap::ColumnType::kText;
    for (int64_t i = 0; i < n_rows; ++i) {
      if (cells[i] == nullptr) {
        if (c.text_missing.empty()) c.text_missing.assign(static_cast<std::size_t>(n_rows), 0);
        c.text_missing[static_cast<std::size_t>(i)] = 1;
        c.text.emplace_back();
      } else {
        c.text.emplace_back(cells[i]);
      }
    }
    AddColumn(table, std::move(c), n_rows);
  });
}

int perfshap_table_from_arrow(const char* source, struct ArrowSchema* schema, struct ArrowArray* array,
                              PerfshapTable** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    auto t = std::make_unique<PerfshapTable>();
    t->built = nullptr;
    t->table = perfshap::ImportArrowTable(schema, array, source != nullptr && *source != '\0' ? source : "arrow");
    *out = t.release();
  });
}

int perfshap_table_from_arrow_stream(const char* source, struct ArrowArrayStream* stream, PerfshapTable** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    auto t = std::make_unique<PerfshapTable>();
    t->built = nullptr;
    t->table = perfshap::ImportArrowStream(stream, source != nullptr && *source != '\0' ? source : "arrow");
    *out = t.release();
  });
}

void perfshap_table_free(PerfshapTable* table) { delete table; }

int perfshap_model_from_xgboost_json(const char* json, size_t length, const char* name, PerfshapModel** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    NotNull(json, "json");
    auto m = std::make_unique<PerfshapModel>();
    m->name = name != nullptr && *name != '\0' ? name : "model";
    m->json.assign(json, length);
    m->n_features = perfshap::ParseXgboostModel(m->json, m->name)->n_features();
    *out = m.release();
  });
}

int perfshap_model_from_file(const char* path, PerfshapModel** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    NotNull(path, "path");
    auto m = std::make_unique<PerfshapModel>();
    m->name = path;
    // The handle holds the text it read: replacing the file later does not change what it explains.
    m->json = perfshap::ReadXgboostModelText(path);
    m->n_features = perfshap::ParseXgboostModel(m->json, m->name)->n_features();
    *out = m.release();
  });
}

int perfshap_model_n_features(const PerfshapModel* model, size_t* out) {
  return Guard([&] {
    NotNull(model, "model");
    NotNull(out, "out");
    *out = model->n_features;
  });
}

void perfshap_model_free(PerfshapModel* model) { delete model; }

int perfshap_request_create(const char* method, const char* options_json, PerfshapRequest** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    NotNull(method, "method");
    const std::string m = method;
    if (perfshap::api::FindMethod(m) == nullptr) {
      std::vector<std::string> names;
      for (const perfshap::api::MethodEntry& e : perfshap::api::Methods()) names.push_back(e.name);
      throw perfshap::InvalidArgument("unknown method '" + m + "'; the methods: " + perfshap::detail::CommaList(names),
                                      {"method"});
    }
    auto r = std::make_unique<PerfshapRequest>();
    r->method = m;
    if (options_json != nullptr && *options_json != '\0') {
      // Nesting first: the parser recurses, and 10,000 brackets would overflow the stack.
      perfshap::detail::CheckJsonNesting(options_json, "the options: ", "give one object, e.g. {\"threads\": 2}");
      try {
        r->options = nlohmann::json::parse(options_json);
      } catch (const nlohmann::json::exception& e) {
        std::string what = e.what();
        const auto at = what.find("] ");
        throw perfshap::InvalidArgument(
            "the options are not valid JSON (" + (at == std::string::npos ? what : what.substr(at + 2)) +
                "); give one object, e.g. {\"threads\": 2}",
            {"options"});
      }
    }
    perfshap::api::OptionTextOfJson(r->options);  // an object, or refused now
    *out = r.release();
  });
}

int perfshap_request_set_table(PerfshapRequest* request, const char* role, const PerfshapTable* table) {
  return Guard([&] {
    NotNull(request, "request");
    NotNull(role, "role");
    NotNull(table, "table");
    const std::string r = role;
    if (r == "data")
      request->data = table->table;
    else if (r == "train")
      request->train = table->table;
    else if (r == "background")
      request->background = table->table;
    else
      throw perfshap::InvalidArgument("unknown table role '" + r + "'; use data, train or background", {"role"});
  });
}

int perfshap_request_set_model(PerfshapRequest* request, const PerfshapModel* model) {
  return Guard([&] {
    NotNull(request, "request");
    NotNull(model, "model");
    request->model = *model;
  });
}

int perfshap_request_set_progress(PerfshapRequest* request, PerfshapProgressCallback callback, void* user) {
  return Guard([&] {
    NotNull(request, "request");
    request->progress = callback;
    request->user = user;
  });
}

int perfshap_request_set_mpi_comm(PerfshapRequest* request, const void* mpi_comm) {
  return Guard([&] {
    NotNull(request, "request");
    request->processes = mpi_comm == nullptr ? nullptr : perfshap::Processes::FromMpiComm(mpi_comm);
  });
}

int perfshap_request_cancel(PerfshapRequest* request) {
  return Guard([&] {
    NotNull(request, "request");
    request->cancel = true;
  });
}

void perfshap_request_free(PerfshapRequest* request) { delete request; }

int perfshap_run(PerfshapRequest* request, PerfshapResult** out) {
  return Guard([&] {
    NotNull(out, "out");
    *out = nullptr;
    NotNull(request, "request");
    // A cancellation asked for before the run is honoured; the flag is cleared when the run
    // returns, so that the request can run again.
    struct Reset {
      PerfshapRequest* r;
      ~Reset() {
        r->relay.reset();
        r->cancel = false;
      }
    } reset{request};
    if (request->cancel) throw perfshap::Cancelled();
    // Over the processes of an MPI run (mpi_comm): an error before the run's agreement reaches
    // the others instead of leaving them waiting.
    perfshap::detail::BeginRunAgreement();
    if (request->progress != nullptr)
      request->relay = std::make_unique<ProgressRelay>(request->progress, request->user, &request->cancel);
    try {
      auto result = std::make_unique<PerfshapResult>();
      perfshap::api::MethodCall call = CallRegistered(request);
      result->run = std::move(call.run);
      result->target = std::move(call.target);
      for (const auto& n : result->run.names) {
        std::vector<const char*> p;
        for (const std::string& s : n.values) p.push_back(s.c_str());
        result->name_pointers.push_back(std::move(p));
        result->names_keys.push_back(n.name.c_str());
      }
      for (const auto& a : result->run.arrays) result->array_keys.push_back(a.name.c_str());
      if (!result->target.dir.empty() || result->target.html)
        result->files = perfshap::detail::RunReporter(result->run.reporter, result->target);
      *out = result.release();
    } catch (...) {
      perfshap::detail::TellPeersOfFailure(std::current_exception());
      throw;
    }
  });
}

int perfshap_result_array(const PerfshapResult* result, const char* name, const double** values,
                          const size_t** shape, size_t* ndim) {
  return Guard([&] {
    NotNull(values, "values");
    NotNull(shape, "shape");
    NotNull(ndim, "ndim");
    const perfshap::api::ResultArray& a = ArrayOf(result, name);
    *values = a.values().data();
    *shape = a.shape.data();
    *ndim = a.shape.size();
  });
}

int perfshap_result_copy_array(const PerfshapResult* result, const char* name, double* out, size_t capacity,
                               size_t* size) {
  return Guard([&] {
    NotNull(size, "size");
    const perfshap::api::ResultArray& a = ArrayOf(result, name);
    const std::span<const double> v = a.values();
    *size = v.size();
    if (capacity < v.size())
      throw perfshap::InvalidArgument("'" + std::string(name) + "' holds " + std::to_string(v.size()) +
                                          " values and the buffer " + std::to_string(capacity) +
                                          "; give a buffer of *size values",
                                      {"capacity"});
    if (!v.empty()) {
      NotNull(out, "out");
      std::memcpy(out, v.data(), v.size() * sizeof(double));
    }
  });
}

int perfshap_result_names(const PerfshapResult* result, const char* name, const char* const** names, size_t* count) {
  return Guard([&] {
    NotNull(result, "result");
    NotNull(name, "name");
    NotNull(names, "names");
    NotNull(count, "count");
    for (std::size_t i = 0; i < result->run.names.size(); ++i) {
      if (result->run.names[i].name != name) continue;
      *names = result->name_pointers[i].data();
      *count = result->name_pointers[i].size();
      return;
    }
    throw perfshap::InvalidArgument("the " + result->run.method + " result has no names '" + name + "'", {"name"});
  });
}

int perfshap_result_keys(const PerfshapResult* result, int which, const char* const** keys, size_t* count) {
  return Guard([&] {
    NotNull(result, "result");
    NotNull(keys, "keys");
    NotNull(count, "count");
    PERFSHAP_CHECK(which == PERFSHAP_ARRAYS || which == PERFSHAP_NAMES,
                   "which is PERFSHAP_ARRAYS or PERFSHAP_NAMES, got " + std::to_string(which), {"which"});
    const std::vector<const char*>& k = which == PERFSHAP_ARRAYS ? result->array_keys : result->names_keys;
    *keys = k.data();
    *count = k.size();
  });
}

int perfshap_result_console(const PerfshapResult* result, const char** text) {
  return Guard([&] {
    NotNull(result, "result");
    NotNull(text, "text");
    *text = result->run.console.c_str();
  });
}

int perfshap_result_file(PerfshapResult* result, const char* file, const char** content, size_t* length) {
  return Guard([&] {
    NotNull(result, "result");
    NotNull(file, "file");
    NotNull(content, "content");
    NotNull(length, "length");
    if (!result->files) result->files = perfshap::detail::RunReporter(result->run.reporter, result->target);
    for (const auto& f : *result->files) {
      if (f.name != file) continue;
      *content = f.content.c_str();
      *length = f.content.size();
      return;
    }
    std::string known;
    for (const auto& f : *result->files) known += (known.empty() ? "" : ", ") + f.name;
    throw perfshap::InvalidArgument("the run wrote no file '" + std::string(file) + "'; its files: " + known,
                                    {"file"});
  });
}

void perfshap_result_free(PerfshapResult* result) { delete result; }

}  // extern "C"
