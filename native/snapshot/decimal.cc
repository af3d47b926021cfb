// SPDX-License-Identifier: EPL-2.0
#include "snapshot/decimal.h"

namespace tracesync::snapshot {

v1::Decimal to_decimal_message(model::Quad value) {
  v1::Decimal d;
  d.set_exact(model::to_decimal(value));
  d.set_approx(model::to_double(value));
  return d;
}

v1::Decimal rounded_decimal_message(const model::Rational& value) {
  v1::Decimal d;
  d.set_exact(model::rounded_decimal(value));
  d.set_approx(model::to_double(model::to_quad(value)));
  return d;
}

}  // namespace tracesync::snapshot
