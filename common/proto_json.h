// Protobuf messages as JSON text, the way the services store them (field names as in the
// .proto files): settings, policies and outcomes in PostgreSQL rows and exported records.
#pragma once

#include <string>

#include "google/protobuf/message.h"
#include "google/protobuf/util/json_util.h"

namespace arena::common {

inline std::string ProtoToJson(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return out;
}

// False when `json` does not parse as `M` (the message is then unspecified).
inline bool ProtoFromJson(const std::string& json, google::protobuf::Message* m) {
  return google::protobuf::util::JsonStringToMessage(json, m).ok();
}

}  // namespace arena::common
