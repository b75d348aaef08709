// The layering of the source tree, as a check of its #include lines (docs/architecture.md,
// "Layers"):
//
//   explorer/       the engine                  includes explorer/ only, each part only its
//                                               own folder and the parts before it:
//     core/         the execution, the actor API, the strategy seam, the time hook,
//                   happens-before, schedules, JSON reading
//     strategies/   one strategy per file       core/
//     time/         virtual time                core/, strategies/
//     search/       the loops over executions   core/, strategies/, time/
//     evidence/     incident logs, explanations core/, strategies/, time/, search/
//     model_api/    what a model implements     every part before it
//                   (no file lies loose at explorer/'s root)
//   reports/        trace documents, renderers  includes explorer/, reports/ (not reports/run/,
//                                               reports/cli/)
//   reports/run/    the run layer: scenarios,   includes explorer/, reports/, reports/run/ (not
//                   settings, runs, outputs     reports/cli/, not CLI11)
//   reports/cli/    the generic command line    includes explorer/, reports/ (the run layer too)
//   model/<name>/   one model                   includes explorer/, model/<name>/, and the
//                                               registration headers at the top of model/
//   model/*         the registration of models  includes explorer/, model/
//   model/main.cpp  the executable              includes explorer/, reports/, model/
//   model/<name>/example/main.cpp               the same: a model's own executable, built out
//                                               of tree against the installed package
//
// Quoted includes are paths from the source root ("explorer/search/explorer.hpp"): anything else quoted
// (tests/, a path relative to the including file) is a violation too. Of the angle-bracket
// includes, CLI11 (<CLI/...>) belongs to the command line (reports/cli/ and model/main.cpp, not
// the run layer beneath it), Catch2 (<catch2/...>) to tests/.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace interleave::test {

struct LayeringScan {
  std::size_t files = 0;     ///< source files read
  std::vector<std::string> paths;  ///< their paths from the source root, in the order read
  std::size_t includes = 0;  ///< #include lines checked
  /// "FILE:LINE: includes X: RULE", sorted by file, then line.
  std::vector<std::string> violations;
};

namespace layering {

enum class Kind { kEngine, kReports, kRun, kCli, kExecutable, kRegistration, kModel };

struct FileLayer {
  Kind kind;
  std::string model_dir;  ///< kModel: "model/<name>/"
  int part = -1;          ///< kEngine: the index of its part in kEngineParts
};

/// The engine's parts, in order: a part includes only itself and the parts before it.
inline constexpr std::array<std::string_view, 6> kEngineParts = {
    "core/", "strategies/", "time/", "search/", "evidence/", "model_api/"};

/// The part of an engine path ("explorer/search/x.hpp" -> 3); -1 when it is in none.
inline int engine_part(std::string_view path) {
  path.remove_prefix(std::string_view("explorer/").size());
  for (std::size_t i = 0; i < kEngineParts.size(); ++i)
    if (path.starts_with(kEngineParts[i])) return static_cast<int>(i);
  return -1;
}

/// The layer of a file, from its path relative to the source root ('/'-separated); nullopt for
/// files outside the layers (tests/, scenarios/, ...).
inline std::optional<FileLayer> layer_of(const std::string& path) {
  if (path.starts_with("explorer/")) return FileLayer{Kind::kEngine, "", engine_part(path)};
  if (path.starts_with("reports/run/")) return FileLayer{Kind::kRun, ""};
  if (path.starts_with("reports/cli/")) return FileLayer{Kind::kCli, ""};
  if (path.starts_with("reports/")) return FileLayer{Kind::kReports, ""};
  if (path == "model/main.cpp") return FileLayer{Kind::kExecutable, ""};
  if (path.starts_with("model/")) {
    const auto slash = path.find('/', 6);
    if (slash == std::string::npos) return FileLayer{Kind::kRegistration, ""};
    if (path.substr(slash) == "/example/main.cpp") return FileLayer{Kind::kExecutable, ""};
    return FileLayer{Kind::kModel, path.substr(0, slash + 1)};
  }
  return std::nullopt;
}

/// Why `layer` may not include `target` ("" when it may). `quoted`: #include "..." (else <...>).
inline std::string violation(const FileLayer& layer, const std::string& target, bool quoted) {
  auto under = [&target](std::string_view prefix) { return target.starts_with(prefix); };
  if (!quoted) {
    if (under("catch2/")) return "Catch2 belongs to tests/";
    if (under("CLI/") && layer.kind != Kind::kCli && layer.kind != Kind::kExecutable)
      return "CLI11 belongs to the command line (reports/cli/, model/main.cpp)";
    return "";
  }
  switch (layer.kind) {
    case Kind::kEngine: {
      if (!under("explorer/")) return "the engine (explorer/) may include only explorer/";
      if (layer.part < 0) return "a file of the engine lies in none of its parts";
      const int part = engine_part(target);
      if (part < 0) return "the engine's parts include only files of its parts";
      if (part > layer.part)
        return "explorer/" + std::string(kEngineParts[static_cast<std::size_t>(layer.part)]) +
               " may include only its own folder and the parts before it (" +
               "core/, strategies/, time/, search/, evidence/, model_api/)";
      return "";
    }
    case Kind::kReports:
      if (under("explorer/") ||
          (under("reports/") && !under("reports/run/") && !under("reports/cli/")))
        return "";
      return "reports/ may include only explorer/ and reports/ (not reports/run/, reports/cli/)";
    case Kind::kRun:
      if (under("explorer/") || (under("reports/") && !under("reports/cli/"))) return "";
      return "the run layer (reports/run/) may include only explorer/, reports/ and reports/run/ "
             "(not reports/cli/)";
    case Kind::kCli:
      if (under("explorer/") || under("reports/")) return "";
      return "the command line (reports/cli/) may include only explorer/ and reports/";
    case Kind::kExecutable:
      if (under("explorer/") || under("reports/") || under("model/")) return "";
      return "model/main.cpp may include only explorer/, reports/ and model/";
    case Kind::kRegistration:
      if (under("explorer/") || under("model/")) return "";
      return "the registration of models (model/*) may include only explorer/ and model/";
    case Kind::kModel: {
      const bool registration_header = under("model/") && target.find('/', 6) == std::string::npos;
      if (under("explorer/") || under(layer.model_dir) || registration_header) return "";
      return "a model (" + layer.model_dir + ") may include only explorer/, " + layer.model_dir +
             " and the registration headers of model/";
    }
  }
  return "unknown layer";
}

}  // namespace layering

/// Scans every .hpp and .cpp under root/explorer, root/reports and root/model.
inline LayeringScan scan_layering(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  static const std::regex include_line(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  LayeringScan scan;
  std::vector<std::pair<std::string, std::string>> found;  // (file and zero-padded line, message)
  for (const char* top : {"explorer", "reports", "model"}) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".hpp" && ext != ".cpp")) continue;
      const std::string path = fs::relative(entry.path(), root).generic_string();
      const std::optional<layering::FileLayer> layer = layering::layer_of(path);
      if (!layer) continue;
      ++scan.files;
      scan.paths.push_back(path);
      std::ifstream in(entry.path());
      std::size_t number = 0;
      for (std::string line; std::getline(in, line);) {
        ++number;
        std::smatch m;
        if (!std::regex_search(line, m, include_line)) continue;
        ++scan.includes;
        const bool quoted = m[1] == "\"";
        const std::string target = m[2];
        const std::string why = layering::violation(*layer, target, quoted);
        if (why.empty()) continue;
        char key[24];
        std::snprintf(key, sizeof key, ":%08zu", number);
        found.emplace_back(path + key, path + ":" + std::to_string(number) + ": includes " +
                                           (quoted ? "\"" + target + "\"" : "<" + target + ">") +
                                           ": " + why);
      }
    }
  }
  std::sort(found.begin(), found.end());
  for (auto& [_, message] : found)
    scan.violations.push_back(std::move(message));
  return scan;
}

}  // namespace interleave::test
