// render_json: kept apart from the other renderers because it needs to_json(TraceDocument), which
// reports/trace/trace.cpp defines; a program that never calls render_json does not link this file.
#include "reports/render/render.hpp"

namespace interleave::reports {

std::string render_json(const TraceDocument& doc) {
  return to_json(doc).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace interleave::reports
