// Errors of the command line itself (as opposed to InputError, which names a file and a JSON
// path): a bad option value, an output that cannot be written. Both exit with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace interleave::run {

/// A wrong option or argument, e.g. "--out: 'x' exists and is not a directory".
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A file we had to write could not be written (e.g. "cannot write 'out/x.json': No space left").
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace interleave::run
