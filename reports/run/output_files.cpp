#include "reports/run/output_files.hpp"

#include "reports/run/errors.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

namespace interleave::run {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTemporaryMark = ".interleave-tmp-";

// errno values with which open(O_TMPFILE) says the file system cannot make unnamed files.
bool no_unnamed_files(int err) {
  return err == EOPNOTSUPP || err == EISDIR || err == EINVAL;
}

// Writes all of `content` to `fd` and flushes it to disk; 0, or the errno of the failure.
int write_all(int fd, std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return ::fsync(fd) == 0 ? 0 : errno;
}

// 0 if this process can create a file in the directory `dir`, else the errno of the attempt.
int try_create_in(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return 0;
  }
  if (!no_unnamed_files(errno)) return errno;
  const fs::path probe = dir / temporary_name("probe", ::getpid(), 0);
  const int named = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (named < 0) return errno == EEXIST ? 0 : errno;
  ::close(named);
  ::unlink(probe.c_str());
  return 0;
}

std::string quoted(const fs::path& p) {
  return "'" + p.string() + "'";
}

}  // namespace

std::string temporary_name(const fs::path& target, long pid, unsigned long n) {
  return "." + target.filename().string() + std::string(kTemporaryMark) + std::to_string(pid) +
         "-" + std::to_string(n);
}

void write_file_atomically(const fs::path& path, std::string_view content) {
  static std::atomic<unsigned long> counter{0};
  auto failure = [&path](int err) {
    return OutputError("cannot write '" + path.string() + "': " + std::strerror(err));
  };
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw OutputError("cannot write '" + path.string() + "': " + ec.message());
  const fs::path tmp = dir / temporary_name(path, ::getpid(), counter++);

  // The bytes first, in a file without a name: a kill while writing or flushing leaves nothing.
  bool named = false;
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd >= 0) {
    if (const int err = write_all(fd, content); err != 0) {
      ::close(fd);
      throw failure(err);
    }
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    named = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
    ::close(fd);  // without a name (no /proc): the bytes are written again below
  } else if (!no_unnamed_files(errno)) {
    throw failure(errno);
  }
  if (!named) {
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw failure(errno);
    if (const int err = write_all(fd, content); err != 0) {
      ::close(fd);
      ::unlink(tmp.c_str());
      throw failure(err);
    }
    if (::close(fd) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      throw failure(err);
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw failure(err);
  }
}

namespace {

// The pid in a temporary's name, if `name` is one write_file_atomically makes or made:
// ".NAME.interleave-tmp-PID-N" (this version) or ".NAME.tmp-PID" (the versions before); else 0.
long temporary_pid(const std::string& name) {
  auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == s.npos;
  };
  if (name.size() < 2 || name[0] != '.') return 0;
  std::string_view pid;
  if (const auto mark = name.rfind(kTemporaryMark); mark != std::string::npos && mark >= 2) {
    const std::string_view rest = std::string_view(name).substr(mark + kTemporaryMark.size());
    const auto dash = rest.find('-');
    if (dash == rest.npos || !digits(rest.substr(dash + 1))) return 0;
    pid = rest.substr(0, dash);
  } else if (const auto legacy = name.rfind(".tmp-"); legacy != std::string::npos && legacy >= 2) {
    pid = std::string_view(name).substr(legacy + 5);
  } else {
    return 0;
  }
  return digits(pid) ? std::stol(std::string(pid)) : 0;
}

}  // namespace

std::size_t remove_stale_temporaries(const fs::path& dir) {
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const long pid = temporary_pid(it->path().filename().string());
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max() || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running
    std::error_code file_ec;
    if (!fs::is_regular_file(fs::symlink_status(it->path(), file_ec))) continue;
    if (fs::remove(it->path(), file_ec)) ++removed;
  }
  return removed;
}

namespace {

// `target` (a file or directory to be written, named with `option`) can be created: the nearest
// existing ancestor from `start` up is a directory in which this process can create files.
void check_creatable(const std::string& option, const fs::path& target, const fs::path& start) {
  std::error_code ec;
  const fs::path from = start.empty() ? fs::path(".") : start;
  fs::path existing = from;
  while (!fs::exists(fs::status(existing, ec))) {
    fs::path parent = existing.parent_path();
    if (parent.empty()) parent = ".";
    if (parent == existing) break;
    existing = parent;
  }
  if (!fs::is_directory(fs::status(existing, ec)))
    throw UsageError(option + ": cannot create " + quoted(target) + ": " + quoted(existing) +
                     " is not a directory");
  if (const int err = try_create_in(existing); err != 0)
    throw UsageError(option + ": cannot create " + quoted(target) + ": cannot create files in " +
                     quoted(existing) + ": " + std::strerror(err));
  if (existing == from) remove_stale_temporaries(existing);
}

}  // namespace

void check_output_directory(std::string_view option, const fs::path& dir) {
  const std::string opt(option);
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    throw UsageError(opt + ": " + quoted(dir) + " exists and is not a directory");
  if (fs::is_directory(status)) {
    if (const int err = try_create_in(dir); err != 0)
      throw UsageError(opt + ": cannot create files in " + quoted(dir) + ": " +
                       std::strerror(err));
    remove_stale_temporaries(dir);
    return;
  }
  check_creatable(opt, dir, dir.parent_path());
}

void check_output_file(std::string_view option, const fs::path& file) {
  const std::string opt(option);
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);
  if (fs::is_directory(status))
    throw UsageError(opt + ": " + quoted(file) + " is a directory, expected a file");
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw UsageError(opt + ": " + quoted(file) + " exists and is not a regular file");
  check_creatable(opt, file, file.parent_path());
}

}  // namespace interleave::run
