// Placeholder translation unit until the StarRocks model lands (issue 4).
namespace interleave::model {}
