// Names of the world's FEs, CNs, sessions and tables (config.hpp).
#include "model/starrocks/config.hpp"

namespace interleave::model {

std::string frontend_name(int index) {
  return "fe" + std::to_string(index + 1);
}

std::string compute_node_name(int index) {
  return "cn" + std::to_string(index + 1);
}

std::string task_run_session(const std::string& task, int attempt) {
  return task + "#" + std::to_string(attempt);
}

std::string client_table_name(const std::string& client, int k) {
  return "tmp_" + client + "_" + std::to_string(k);
}

}  // namespace interleave::model
