// Errors in what a user gave us (a scenario, a trace, a schedule, an option), as opposed to bugs
// of ours. The message always says where: the file and the JSON path (RFC 6901 pointer).
#pragma once

#include <stdexcept>
#include <string>

namespace interleave {

class InputError : public std::runtime_error {
 public:
  /// what() is "FILE: PATH: MESSAGE" (the path is "/" for the whole document).
  InputError(std::string file, std::string json_path, std::string message)
      : std::runtime_error(file + ": " + (json_path.empty() ? "/" : json_path) + ": " + message),
        file_(std::move(file)),
        path_(json_path.empty() ? "/" : std::move(json_path)),
        message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::string path_;
  std::string message_;
};

}  // namespace interleave
