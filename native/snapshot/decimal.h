// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/quad.h"
#include "model/rational.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The proto form of an exact value: 34 significant digits and a double.
v1::Decimal to_decimal_message(model::Quad value);
// An exact value rounded once to the report's digits (and to a double).
v1::Decimal rounded_decimal_message(const model::Rational& value);

}  // namespace tracesync::snapshot
