// SPDX-License-Identifier: EPL-2.0
#include "ctf/field_path_lookup.h"

namespace tracesync::ctf {

const FieldClass* lookup_field_path(const FieldPath& path, const TraceClass& trace, const StreamClass* stream,
                                    const EventClass* event, std::span<const FieldClass* const> enclosing) {
  if (path.names.empty()) return nullptr;
  const FieldClass* at = nullptr;
  if (path.absolute) {
    switch (path.scope) {
      case Scope::kPacketHeader: at = trace.packet_header.get(); break;
      case Scope::kPacketContext: at = stream ? stream->packet_context.get() : nullptr; break;
      case Scope::kEventHeader: at = stream ? stream->event_header.get() : nullptr; break;
      case Scope::kStreamEventContext: at = stream ? stream->event_context.get() : nullptr; break;
      case Scope::kEventContext: at = event ? event->context.get() : nullptr; break;
      case Scope::kEventPayload: at = event ? event->payload.get() : nullptr; break;
    }
  } else {
    for (auto frame = enclosing.rbegin(); frame != enclosing.rend() && at == nullptr; ++frame) {
      if ((*frame)->member(path.names[0]) != nullptr) at = *frame;
    }
  }
  for (const std::string& name : path.names) {
    if (at == nullptr) return nullptr;
    const Member* member = at->member(name);
    at = member ? member->type.get() : nullptr;
  }
  return at;
}

}  // namespace tracesync::ctf
