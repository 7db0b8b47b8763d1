// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/**
 * @brief A named pipe (FIFO) for the running test that a thread fills with `text` once a reader
 * opens it, as `--data <(cat f.csv)` gives a program: it can be read once, and has no size.
 * Whatever the reader did (read all, some, or never opened it), the destructor releases the
 * writer and removes the pipe, so a failing test neither hangs nor leaves a pipe that would
 * block the next run.
 */
class FifoWriter {
 public:
  FifoWriter(const std::string& name, std::string text) : text_(std::move(text)) {
    // The test's own scratch folder (WriteTempFile makes it); the pipe replaces any leftover.
    const std::filesystem::path marker = WriteTempFile(name + ".marker", "");
    std::filesystem::remove(marker);
    path_ = (marker.parent_path() / name).string();
    std::filesystem::remove(path_);
    created_ = ::mkfifo(path_.c_str(), 0600) == 0;
    EXPECT_TRUE(created_) << "cannot make the pipe " << path_;
    if (created_) writer_ = std::thread([this] { Write(); });
  }
  ~FifoWriter() {
    if (writer_.joinable()) {
      // A reader end of our own lets a writer still waiting in open() go on; then drain the
      // pipe so that its writes finish, until it closes its end.
      const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
      char buffer[4096];
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (fd >= 0 && !done_.load() && std::chrono::steady_clock::now() < deadline) {
        if (::read(fd, buffer, sizeof buffer) <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      writer_.join();
      if (fd >= 0) ::close(fd);
    }
    std::filesystem::remove(path_);
  }
  FifoWriter(const FifoWriter&) = delete;
  FifoWriter& operator=(const FifoWriter&) = delete;

  const std::string& path() const noexcept { return path_; }

 private:
  void Write() {
    // A reader that stops early makes write() fail with EPIPE in this thread, not kill the test.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    const int fd = ::open(path_.c_str(), O_WRONLY);  // waits for a reader
    std::size_t at = 0;
    while (fd >= 0 && at < text_.size()) {
      const ssize_t n = ::write(fd, text_.data() + at, text_.size() - at);
      if (n <= 0) break;  // the reader went away (EPIPE)
      at += static_cast<std::size_t>(n);
    }
    if (fd >= 0) ::close(fd);
    done_.store(true);
  }

  std::string text_;
  std::string path_;
  bool created_ = false;
  std::atomic<bool> done_{false};
  std::thread writer_;
};

}}}  // namespace perfshap::testing
