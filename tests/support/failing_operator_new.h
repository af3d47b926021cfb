// SPDX-License-Identifier: EPL-2.0
#pragma once

// Out-of-memory tests: failing_operator_new.cc replaces the global operator
// new and delete of the test binary it is compiled into (never a library:
// every binary linking it would get them). Each allocation first asks the
// veto, when one is set; true makes it throw std::bad_alloc.

namespace tracesync::testing {

// Called on every allocation, from any thread: must not allocate.
using AllocationVeto = bool (*)();

void set_allocation_veto(AllocationVeto veto);

}  // namespace tracesync::testing
