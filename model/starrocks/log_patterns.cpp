// The table of the lines StarRocks logs at the model's steps (log_patterns.hpp). Sources are
// StarRocks/starrocks files at the commits they were read at; a line whose text could not be
// read at any commit says "hypothetical: " and what it follows instead (docs/incident-logs.md,
// "The model's patterns").
#include "model/starrocks/log_patterns.hpp"

#include "explorer/core/execution.hpp"

#include <cstdint>

namespace interleave::model {

namespace {

constexpr std::string_view kManager =
    "fe/fe-core/src/main/java/com/starrocks/server/TemporaryTableMgr.java"
    "@6b3e681e4dc5d2bb8839d71bcf42ff5d919b26b9";
constexpr std::string_view kCleaner =
    "fe/fe-core/src/main/java/com/starrocks/server/TemporaryTableCleaner.java"
    "@39acbe94b417951e60b55fd9422c5384924d30be";
constexpr std::string_view kDeltaWriter =
    "be/src/storage/lake/async_delta_writer.cpp@e90f37f57dec7860dc848686bd61a67b528c0d72 (the "
    "message up to the status that follows it; the line as the 4.1.1 CN log of the bug report "
    "prints it)";
constexpr std::string_view kDeltaWriterWrite =
    "be/src/storage/lake/async_delta_writer.cpp@e90f37f57dec7860dc848686bd61a67b528c0d72 (the "
    "message up to the status that follows it; the line is the bug report's 244 of \"Fail to "
    "finish write\" less the 9 lines between the two messages at that commit)";
constexpr std::string_view kTabletsChannel =
    "be/src/runtime/lake_tablets_channel.cpp@205aa2e571e4932a830a79835b1c781e782e3a8f (the "
    "message up to the status that follows it; the line as the 4.1.1 CN log of the bug report "
    "prints it)";

LogPattern pattern(std::string_view id, std::string level, std::string logger, std::string method,
                   int line, std::string_view source, std::string text) {
  return LogPattern{std::string(id),   std::move(level),  std::move(logger), std::string(source),
                    std::move(text),   std::move(method), line};
}

}  // namespace

const LogPatternTable& starrocks_log_patterns() {
  static const LogPatternTable table({
      // FE (fe.log): TemporaryTableMgr and TemporaryTableCleaner, on the leader.
      pattern(logs::kAddTemporaryTable, "INFO", "TemporaryTableMgr", "addTemporaryTable", 110,
              kManager,
              "add temporary table, session[{session:uuid}], db id[{db:int}], table "
              "name[{table_name:word}], table id[{table:int}]"),
      pattern(logs::kDropTemporaryTable, "INFO", "TemporaryTableMgr", "dropTemporaryTable", 134,
              kManager,
              "drop temporary table, session[{session:uuid}], db id[{db:int}], table "
              "name[{table_name:word}]"),
      pattern(logs::kRemoveTemporaryTables, "INFO", "TemporaryTableMgr", "removeTemporaryTables",
              159, kManager, "remove all temporary tables in session[{session:uuid}]"),
      pattern(logs::kCleanDeadSession, "WARN", "TemporaryTableCleaner", "runAfterCatalogReady", 83,
              kCleaner,
              "cannot find alive session {session:uuid}, should clean all temporary tables on it"),
      // CN (glog): the tablet's creation and the load's failure.
      pattern(logs::kAddShard, "INFO", "lake_service.cpp", "", 120,
              "hypothetical: the text is the bug report's CN excerpt (\"Add shard id: 52305 file "
              "path: .../db16061/52300/52302\"), which names no file or line; no StarRocks source "
              "read prints it, and lake_service.cpp:120 is a placeholder",
              "Add shard id: {tablet:int} file path: {path:word}"),
      pattern(logs::kSchemaNotFound, "WARN", "table_schema_service.cpp", "", 331,
              "hypothetical: the text is the bug report's excerpt of the 4.1.1 CN log "
              "(table_schema_service.cpp:331); at be/src/storage/lake/table_schema_service.cpp"
              "@781ba5aa28c5d657c53952dfa3317abb1f8a4a33 _fetch_schema_via_rpc logs \"failed to "
              "get schema. <request>, fe: <host>, rpc latency: <n>us, error: <status>\", of which "
              "the report shows the request and the error",
              "failed to get schema db_id: {db:int}, table_id: {table:int}, schema_id: "
              "{schema:int}, tablet_id: {tablet:int}, txn_id: {txn:int} error: Table not exist: "
              "table not found, may be dropped"),
      pattern(logs::kFailToWrite, "ERROR", "async_delta_writer.cpp", "", 235, kDeltaWriterWrite,
              "Fail to write. tablet_id: {tablet:int} txn_id: {txn:int}"),
      pattern(logs::kFailToFinishWrite, "ERROR", "async_delta_writer.cpp", "", 244, kDeltaWriter,
              "Fail to finish write. tablet_id: {tablet:int} txn_id: {txn:int}"),
      pattern(logs::kFailToFinishTablet, "ERROR", "lake_tablets_channel.cpp", "", 613,
              kTabletsChannel, "Fail to finish tablet {tablet:int}"),
  }, {
      // A tablet is a shard of one table's partition; a temporary table belongs to the session
      // that created it (TemporaryTableMgr keys its tables by session).
      IdentityRule{"tablet", "table"},
      IdentityRule{"table", "session"},
  });
  return table;
}

std::string log_line(std::string_view id, const std::vector<LogBinding>& values) {
  return starrocks_log_patterns().render(id, values);
}

std::string session_uuid(std::string_view name) {
  const auto fnv = [&](std::uint64_t seed) {
    std::uint64_t h = seed;
    for (const char c : name) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ull;
    }
    return h;
  };
  const std::uint64_t hi = fnv(0xcbf29ce484222325ull);
  const std::uint64_t lo = fnv(0x84222325cbf29ce4ull);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (int i = 15; i >= 0; --i)
    hex += kHex[(hi >> (4 * i)) & 0xf];
  for (int i = 15; i >= 0; --i)
    hex += kHex[(lo >> (4 * i)) & 0xf];
  hex[12] = '4';                                                   // version 4
  hex[16] = kHex[8 + (static_cast<unsigned>(lo >> 60) & 0x3)];     // variant 10xx
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

}  // namespace interleave::model
